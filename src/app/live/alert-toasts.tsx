import { useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/ui/button';
import { ToastPortal } from '../../components/ui/toast-region';
import { playAlertSound, readAlertSignals, subscribeAlertSignals } from '../../lib/alert-signals';
import { shortcutLabel, useShortcuts } from '../command-host/hotkeys';
import { onLiveMessage } from '../../lib/live-events';
import { useCommandRunner } from '../command-host/run-command';

interface AlertToast {
  id: string;
  ref: string;
}

/** The toast's own keys: they act on the newest alert toast, which no command's declaration can name. */
const ACK_KEY = 'alt+a';
const OPEN_KEY = 'alt+o';
const SHOWN_MS = 30_000;

/**
 * Issue 24 §2: a critical alert that just fired is a toast with Acknowledge and Open (their keys
 * shown), and — if the person turned them on in Account Settings — a sound and a browser
 * notification. Drawn in the shared toast region, so it never covers a drawer's buttons.
 */
export function AlertToasts({ userId }: { userId: string }) {
  const runner = useCommandRunner();
  const navigate = useNavigate();
  const [toasts, setToasts] = useState<AlertToast[]>([]);
  const signals = useSyncExternalStore(subscribeAlertSignals, () => readAlertSignals(userId));

  useEffect(
    () =>
      onLiveMessage((m) => {
        const d = m.data;
        if (m.kind !== 'alert' || d.change !== 'opened' || d.severity !== 'critical' || d.status !== 'firing' || typeof d.id !== 'string') return;
        const ref = `${String(d.alertname)}@${String(d.hostname)}`;
        const id = d.id;
        setToasts((list) => [{ id, ref }, ...list.filter((t) => t.id !== id)].slice(0, 3));
        setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), SHOWN_MS);
        if (signals.sound) playAlertSound();
        if (signals.notify && typeof Notification !== 'undefined' && Notification.permission === 'granted') {
          const n = new Notification(`Critical alert: ${ref}`, { body: 'Opsdeck', tag: `opsdeck-alert-${id}` });
          n.onclick = () => {
            window.focus();
            void navigate({ to: '/notifications/show/$id', params: { id } });
          };
        }
      }),
    [navigate, signals],
  );

  const dismiss = (id: string) => setToasts((list) => list.filter((t) => t.id !== id));
  const ack = (t: AlertToast) => void runner.run('alert.ack', { alert: t.id }).then((r) => r && dismiss(t.id));
  const open = (t: AlertToast) => {
    dismiss(t.id);
    void navigate({ to: '/notifications/show/$id', params: { id: t.id } });
  };
  const newest = toasts[0];
  useShortcuts(
    useMemo(
      () => (newest ? [{ shortcut: ACK_KEY, inFields: true, fire: () => ack(newest) }, { shortcut: OPEN_KEY, inFields: true, fire: () => open(newest) }] : []),
      [newest],
    ),
    { active: !!newest },
  );

  if (!toasts.length) return null;
  return (
    <ToastPortal>
      <div role="alert" aria-live="assertive" className="flex flex-col-reverse gap-2">
        {toasts.map((t, i) => (
          <div key={t.id} data-testid="alert-toast" className="pointer-events-auto w-80 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 shadow-md dark:border-red-800 dark:bg-red-950 dark:text-red-100">
            <p className="font-semibold">Critical alert fired</p>
            <p className="font-mono text-xs break-all">{t.ref}</p>
            <div className="mt-2 flex gap-2">
              <Button size="sm" onPress={() => ack(t)} aria-keyshortcuts={i === 0 ? 'Alt+A' : undefined}>
                Acknowledge{i === 0 && <kbd className="ml-1 text-xs opacity-70">{shortcutLabel(ACK_KEY)}</kbd>}
              </Button>
              <Button size="sm" onPress={() => open(t)} aria-keyshortcuts={i === 0 ? 'Alt+O' : undefined}>
                Open{i === 0 && <kbd className="ml-1 text-xs opacity-70">{shortcutLabel(OPEN_KEY)}</kbd>}
              </Button>
              <Button size="sm" variant="ghost" onPress={() => dismiss(t.id)} aria-label={`Dismiss ${t.ref}`}>
                Dismiss
              </Button>
            </div>
          </div>
        ))}
      </div>
    </ToastPortal>
  );
}
