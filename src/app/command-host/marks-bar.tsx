import { useMemo } from 'react';
import { markedNoun, previewList } from '../../../commands/run-marked';
import { MARKED_DESCRIPTION_ID, marks, useMarks } from '../../components/ui/marks';
import { shortcutLabel, useShortcuts, type ShortcutBinding } from './hotkeys';
import { useCommandRunner } from './run-command';

type MarksCommandId = 'marks.toggle' | 'marks.range' | 'marks.clear';

/** The row a key was pressed on, when it is the focused list row (not a control inside it). */
const onFocusedRow = (e: KeyboardEvent) => {
  const id = (e.target as HTMLElement | null)?.getAttribute?.('data-mark-row');
  return !!id && marks.focused()?.id === id;
};

/**
 * What is marked, while something is: how many rows, which, and how to act on them. Binds the
 * marks commands' keys (declared on them: Space, Shift+Space, Escape) for every list; Escape
 * clears on a row or with the focus on the page (not in a field or dialog). Also holds the
 * hidden "Marked" text that marked rows are described by.
 */
export function MarksBar() {
  const { kind, items } = useMarks();
  const runner = useCommandRunner();
  const keyOf = (id: MarksCommandId | 'palette.open' | 'cmdline.open') => runner.get(id)?.shortcut ?? runner.get(id)?.screenKeys?.keys;
  const bindings = useMemo(() => {
    const bind = (id: MarksCommandId, accept: (e: KeyboardEvent) => boolean): ShortcutBinding[] => {
      const keys = runner.get(id)?.screenKeys?.keys;
      return keys
        ? [
            {
              shortcut: keys,
              accept,
              fire: (e) => {
                // Escape on a row of a panel (the history) clears the marks, not the panel.
                if (id === 'marks.clear') e.stopPropagation();
                void runner.run(id, {}, { source: 'hotkey' });
              },
            },
          ]
        : [];
    };
    return [
      ...bind('marks.toggle', onFocusedRow),
      ...bind('marks.range', onFocusedRow),
      ...bind('marks.clear', (e) => marks.get().items.length > 0 && !e.defaultPrevented && (e.target === document.body || onFocusedRow(e))),
    ];
  }, [runner]);
  // Capture: ahead of the panels' own Escape (the history panel closes on it).
  useShortcuts(bindings, { capture: true });
  const palette = keyOf('palette.open');
  const line = keyOf('cmdline.open');
  const clear = keyOf('marks.clear');
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
          <span className="hidden text-xs text-blue-100 md:inline">
            {[palette, line]
              .filter((k) => k)
              .map((k) => shortcutLabel(k!))
              .join(' or ')}{' '}
            runs a command on them{clear ? ` · ${shortcutLabel(clear)} clears` : ''}
          </span>
          <button type="button" onClick={() => marks.clear()} className="rounded-full bg-white/20 px-2 py-0.5 text-xs font-semibold outline-none hover:bg-white/30 focus-visible:ring-2 focus-visible:ring-white">
            Clear
          </button>
        </div>
      )}
    </>
  );
}
