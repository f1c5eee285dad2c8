import { useEffect } from 'react';
import { shortcutLabel } from './hotkeys';
import { CommandMarkdown } from '../../lib/markdown';
import { ToastPortal } from '../../components/ui/toast-region';

export interface NoticeState {
  text: string;
  tone: 'ok' | 'error';
  at: number;
  /** The run can be undone: an "Undo" button for UNDO_MS. */
  onUndo?: () => void;
  /** The command's shortcut, after a palette run ("Shortcut: Alt+H"). */
  shortcut?: string;
}

/**
 * What a palette run's notice teaches (issue 13): the command's shortcut, or the keys a screen
 * binds to it with where they work ("Alt+Arrow on a focused pinned widget"); none without either.
 */
export function shortcutHint(def: { shortcut?: string; screenKeys?: { keys: string; where: string } } | undefined): string | undefined {
  if (def?.shortcut) return shortcutLabel(def.shortcut);
  if (def?.screenKeys) return `${shortcutLabel(def.screenKeys.keys)} ${def.screenKeys.where}`;
  return undefined;
}

/** How long a notice with Undo stays (issue 13: 10 s). */
export const UNDO_MS = 10_000;

/** The outcome of a palette or hotkey run, read out by screen readers and gone after a few seconds. */
export function Notice({ notice, onDone, undoKeys }: { notice: NoticeState | null; onDone: () => void; /** `history.undo`'s declared key, named on the Undo button. */ undoKeys?: string }) {
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(onDone, notice.onUndo ? UNDO_MS : notice.tone === 'error' ? 6000 : 3500);
    return () => clearTimeout(t);
  }, [notice, onDone]);
  return (
    <ToastPortal>
      <div role="status" aria-live="polite">
        {notice && (
          <div
            data-testid="notice"
            className={
              notice.tone === 'error'
                ? 'pointer-events-auto rounded-md border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-800 shadow-lg dark:border-red-800 dark:bg-red-950 dark:text-red-200'
                : 'pointer-events-auto flex items-center gap-3 rounded-md border border-slate-200 bg-white px-4 py-2 text-sm text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100'
            }
          >
            <div className="min-w-0 flex-1">
              <CommandMarkdown>{notice.text}</CommandMarkdown>
              {notice.shortcut && (
                <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">
                  Shortcut: <kbd className="rounded border border-slate-300 px-1 font-mono dark:border-slate-600">{notice.shortcut}</kbd>
                </p>
              )}
            </div>
            {notice.onUndo && (
              <button
                type="button"
                onClick={() => {
                  notice.onUndo?.();
                  onDone();
                }}
                className="shrink-0 rounded px-2 py-1 text-sm font-semibold text-blue-700 outline-none hover:bg-blue-50 focus-visible:ring-2 focus-visible:ring-blue-500 dark:text-blue-300 dark:hover:bg-slate-700"
                title={undoKeys ? `Undo (${shortcutLabel(undoKeys)})` : 'Undo'}
              >
                Undo
              </button>
            )}
          </div>
        )}
      </div>
    </ToastPortal>
  );
}
