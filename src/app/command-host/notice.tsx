import { useEffect } from 'react';
import Markdown from 'react-markdown';

export interface NoticeState {
  text: string;
  tone: 'ok' | 'error';
  at: number;
}

/** The outcome of a palette or hotkey run, read out by screen readers and gone after a few seconds. */
export function Notice({ notice, onDone }: { notice: NoticeState | null; onDone: () => void }) {
  useEffect(() => {
    if (!notice) return;
    const t = setTimeout(onDone, notice.tone === 'error' ? 6000 : 3500);
    return () => clearTimeout(t);
  }, [notice, onDone]);
  return (
    <div role="status" aria-live="polite" className="pointer-events-none fixed right-4 bottom-4 z-[60] max-w-md">
      {notice && (
        <div
          className={
            notice.tone === 'error'
              ? 'pointer-events-auto rounded-md border border-red-300 bg-red-50 px-4 py-2 text-sm text-red-800 shadow-lg dark:border-red-800 dark:bg-red-950 dark:text-red-200'
              : 'pointer-events-auto rounded-md border border-slate-200 bg-white px-4 py-2 text-sm text-slate-800 shadow-lg dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100'
          }
        >
          <Markdown>{notice.text}</Markdown>
        </div>
      )}
    </div>
  );
}
