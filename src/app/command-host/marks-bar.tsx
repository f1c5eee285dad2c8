import { useEffect } from 'react';
import { markedNoun, previewList } from '../../../commands/run-marked';
import { MARKED_DESCRIPTION_ID, marks, useMarks } from '../../lib/marks';
import { shortcutLabel } from '../../lib/hotkeys';

/**
 * What is marked, while something is: how many rows, which, and how to act on them. Escape
 * with the focus on the page (not in a field or dialog) clears them too. Also holds the hidden
 * "Marked" text that marked rows are described by.
 */
export function MarksBar() {
  const { kind, items } = useMarks();
  useEffect(() => {
    if (!items.length) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented && e.target === document.body) marks.clear();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [items.length]);
  return (
    <>
      <span id={MARKED_DESCRIPTION_ID} hidden>
        Marked
      </span>
      {kind && items.length > 0 && (
        <div
          role="status"
          aria-label="Marked rows"
          className="fixed bottom-4 left-1/2 z-[55] flex max-w-[90vw] -translate-x-1/2 items-center gap-3 rounded-full border border-blue-300 bg-blue-600 px-4 py-1.5 text-sm text-white shadow-lg dark:border-blue-800"
        >
          <span className="truncate">
            <strong>{markedNoun(kind, items.length)} marked</strong>
            <span className="hidden sm:inline"> ({previewList(items.map((i) => i.label), 3)})</span>
          </span>
          <span className="hidden text-xs text-blue-100 md:inline">{shortcutLabel('mod+k')} or : runs a command on them · Esc clears</span>
          <button type="button" onClick={() => marks.clear()} className="rounded-full bg-white/20 px-2 py-0.5 text-xs font-semibold outline-none hover:bg-white/30 focus-visible:ring-2 focus-visible:ring-white">
            Clear
          </button>
        </div>
      )}
    </>
  );
}
