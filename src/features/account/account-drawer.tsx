import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { whoamiQueryOptions } from '../../api/auth';
import { Button } from '../../components/ui/button';
import { Drawer } from '../../components/ui/drawer';
import { TextField } from '../../components/ui/text-field';
import { Switch } from '../../components/ui/switch';
import { readAlertSignals, subscribeAlertSignals, writeAlertSignals } from '../../lib/alert-signals';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { ApiTokens } from './api-tokens';
import { ContactMethods } from './contact-methods';
import { NotificationRules } from './notification-rules';

/** SPEC §2: 'Account Settings' — the username can be edited; the email is read-only under Security. */
export function AccountDrawer({ isOpen, onOpenChange }: { isOpen: boolean; onOpenChange: (open: boolean) => void }) {
  const { data } = useQuery(whoamiQueryOptions());
  const me = data?.result;
  const form = useCommandForm<'account.rename', { username: string }, 'username'>('account.rename', {
    initial: { username: me?.username ?? '' },
    toInput: (v) => v,
    onDone: () => {},
  });
  const username = form.values!.username;
  const error = form.errors.username ?? form.formError;
  const { busy, reset } = form;
  useEffect(() => {
    if (isOpen) reset({ username: me?.username ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isOpen, me?.username]);

  const dirty = !!me && username.trim() !== me.username;
  const save = () => form.submit();

  return (
    <Drawer title="Account Settings" isOpen={isOpen} onOpenChange={onOpenChange}>
      <form
        className="space-y-6"
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty) void save();
        }}
      >
        <section className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">Profile</h3>
          <TextField label="User name" value={username} onChange={(v) => form.set('username', v)} isRequired errorMessage={error ?? undefined} />
          <Button type="submit" variant="primary" isDisabled={!dirty || busy || !username.trim()}>
            Save
          </Button>
        </section>
        <section className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">Security</h3>
          <TextField label="Email" value={me?.email ?? ''} isDisabled />
          <p className="text-xs text-slate-500 dark:text-slate-400">Role: {me?.role}</p>
        </section>
      </form>
      {me && <AlertSignalSettings userId={me._id} />}
      <div className="mt-6">
        <ApiTokens />
      </div>
      {me && (
        <div className="mt-6">
          <ContactMethods userId={me._id} />
        </div>
      )}
      {me && (
        <div className="mt-6">
          <NotificationRules userId={me._id} />
        </div>
      )}
    </Drawer>
  );
}

/** Issue 24 §2: a sound and a browser notification for new critical alerts, each off until the person turns it on. */
function AlertSignalSettings({ userId }: { userId: string }) {
  const signals = useSyncExternalStore(subscribeAlertSignals, () => readAlertSignals(userId));
  const [denied, setDenied] = useState(false);
  const setNotify = async (on: boolean) => {
    setDenied(false);
    if (on && typeof Notification !== 'undefined' && Notification.permission !== 'granted') {
      const answer = await Notification.requestPermission().catch(() => 'denied' as const);
      if (answer !== 'granted') {
        setDenied(true);
        return;
      }
    }
    writeAlertSignals(userId, { ...signals, notify: on });
  };
  return (
    <section className="mt-6 space-y-3">
      <h3 className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">New critical alerts</h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">A toast always shows; these are for when the tab is not in view.</p>
      <Switch isSelected={signals.sound} onChange={(on) => writeAlertSignals(userId, { ...signals, sound: on })}>
        Play a sound
      </Switch>
      <Switch isSelected={signals.notify} onChange={(on) => void setNotify(on)}>
        Show a browser notification
      </Switch>
      {denied && <p className="text-xs text-red-700 dark:text-red-300">The browser does not allow notifications for this site.</p>}
    </section>
  );
}
