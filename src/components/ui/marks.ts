import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type KeyboardEvent } from 'react';

/**
 * Marks (issue 13, after k9s and lazygit): rows of one list marked with Space, a range with
 * Shift+Space, cleared with Escape. Commands that take a target of the marked kind then apply
 * to every marked row (the palette and the command line ask once, with a preview). One list is
 * marked at a time: marking a row of another kind starts over.
 */
export interface MarkedRow {
  /** The id a command argument takes (the entity's `_id`). */
  id: string;
  /** How the preview names it: a hostname, "cpu on web-01", a username. */
  label: string;
}

export interface MarksState {
  /** The entity kind of the marked rows (server, alert, user, group, command), or null. */
  kind: string | null;
  items: readonly MarkedRow[];
  /** The row the last Space marked or unmarked: where Shift+Space's range starts. */
  anchor: string | null;
}

const EMPTY: MarksState = { kind: null, items: [], anchor: null };
let state: MarksState = EMPTY;
const listeners = new Set<() => void>();
/** The list row that has the focus, where Space and Shift+Space act (set by the rows themselves). */
let cursor: { kind: string; row: MarkedRow; ordered: () => readonly MarkedRow[] } | null = null;
const set = (next: MarksState) => {
  state = next;
  listeners.forEach((l) => l());
};

export const marks = {
  get: (): MarksState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  isMarked: (kind: string, id: string) => state.kind === kind && state.items.some((m) => m.id === id),
  /** Space: marks or unmarks one row. */
  toggle(kind: string, row: MarkedRow): void {
    const items = state.kind === kind ? state.items : [];
    const has = items.some((m) => m.id === row.id);
    set({ kind, items: has ? items.filter((m) => m.id !== row.id) : [...items, row], anchor: row.id });
  },
  /** Shift+Space: marks every row from the anchor to this one (in the order shown), or just this one without an anchor. */
  markRange(kind: string, ordered: readonly MarkedRow[], toId: string): void {
    const to = ordered.findIndex((r) => r.id === toId);
    if (to < 0) return;
    const from = state.kind === kind && state.anchor ? ordered.findIndex((r) => r.id === state.anchor) : -1;
    const range = from < 0 ? [ordered[to]!] : ordered.slice(Math.min(from, to), Math.max(from, to) + 1);
    const items = state.kind === kind ? [...state.items] : [];
    for (const r of range) if (!items.some((m) => m.id === r.id)) items.push(r);
    set({ kind, items, anchor: toId });
  },
  /** Takes some rows off (e.g. the ones a command was applied to), keeping the rest. */
  unmark(ids: readonly string[]): void {
    const items = state.items.filter((m) => !ids.includes(m.id));
    set(items.length ? { ...state, items } : EMPTY);
  },
  clear(): void {
    if (state !== EMPTY) set(EMPTY);
  },
  /** The focused row (a row's focus and blur keep it), or null when no row has the focus. */
  focused: (): MarkedRow | null => cursor?.row ?? null,
  focus(kind: string, row: MarkedRow, ordered: () => readonly MarkedRow[]): void {
    cursor = { kind, row, ordered };
  },
  blur(id: string): void {
    if (cursor?.row.id === id) cursor = null;
  },
  /** Space (`marks.toggle`): the focused row. */
  toggleFocused(): void {
    if (cursor) marks.toggle(cursor.kind, cursor.row);
  },
  /** Shift+Space (`marks.range`): from the anchor to the focused row. */
  rangeToFocused(): void {
    if (cursor) marks.markRange(cursor.kind, cursor.ordered(), cursor.row.id);
  },
};

/** How many lists of each kind are on screen: marks go when the last one does. */
const shown = new Map<string, number>();

export function useMarks(): MarksState {
  return useSyncExternalStore(marks.subscribe, marks.get, marks.get);
}

/** Rows a list draws, in order: the focus moves between these with the arrow keys. */
const ROW = '[data-mark-row]';
/** The id of the hidden "Marked" text that marked rows are described by (the command host draws it). */
export const MARKED_DESCRIPTION_ID = 'opsdeck-marked-row';

/**
 * Keyboard marks for one list: `rowProps(row)` goes on each row element (a table row, a card),
 * making it focusable. ↑/↓ move to the row above or below and Enter opens it (`open`), as in any
 * list; the focused row is where the marks commands act (Space marks it, Shift+Space the range
 * from the last marked row, Escape clears: their keys are declared on the commands and bound by
 * the command host). Keys pressed on a control inside the row (a button, a link) are the control's.
 */
export function useMarkableRows(kind: string, ordered: readonly MarkedRow[], options: { open?: (id: string) => void; keepWhenGone?: boolean } = {}) {
  const { open, keepWhenGone } = options;
  const current = useMarks();
  // Read when Shift+Space is pressed: the rows as shown then.
  const orderedRef = useRef(ordered);
  orderedRef.current = ordered;
  // Marks belong to the list on screen (a drawer over it keeps them; another page does not).
  // Checked after the commit, so switching between a list's table and cards keeps them.
  useEffect(() => {
    if (!kind || keepWhenGone) return;
    shown.set(kind, (shown.get(kind) ?? 0) + 1);
    return () => {
      shown.set(kind, (shown.get(kind) ?? 1) - 1);
      setTimeout(() => {
        if (!shown.get(kind) && state.kind === kind) marks.clear();
      }, 0);
    };
  }, [kind, keepWhenGone]);
  // One tab stop for the whole list (roving focus): the row last focused, else the first.
  const [focused, setFocused] = useState<string | null>(null);
  const tabStop = focused && ordered.some((r) => r.id === focused) ? focused : ordered[0]?.id;
  return useCallback(
    (row: MarkedRow) => {
      const marked = current.kind === kind && current.items.some((m) => m.id === row.id);
      return {
        tabIndex: row.id === tabStop ? 0 : -1,
        'data-mark-row': row.id,
        'data-marked': marked || undefined,
        'aria-describedby': marked ? MARKED_DESCRIPTION_ID : undefined,
        onFocus: (e: { target: EventTarget; currentTarget: EventTarget }) => {
          if (e.target !== e.currentTarget) return;
          setFocused(row.id);
          marks.focus(kind, row, () => orderedRef.current);
        },
        onBlur: (e: { target: EventTarget; currentTarget: EventTarget }) => {
          if (e.target === e.currentTarget) marks.blur(row.id);
        },
        onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
          if (e.target !== e.currentTarget || e.altKey || e.ctrlKey || e.metaKey) return;
          if (e.key === 'Enter' && open) {
            e.preventDefault();
            open(row.id);
          } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            const rows = [...(e.currentTarget.parentElement?.querySelectorAll<HTMLElement>(ROW) ?? [])];
            const next = rows[rows.indexOf(e.currentTarget) + (e.key === 'ArrowDown' ? 1 : -1)];
            if (next) {
              e.preventDefault();
              next.focus();
            }
          }
        },
      };
    },
    [kind, ordered, current, tabStop, open],
  );
}

/** What `useMarkableRows` puts on one row element. */
export type MarkRowProps = ReturnType<ReturnType<typeof useMarkableRows>>;

/** The classes a marked, focusable card or row shows (focus ring; marked: tinted, blue edge). */
export const markedRowClass =
  'outline-none focus-visible:ring-2 focus-visible:ring-blue-500 data-[marked]:bg-blue-50 data-[marked]:shadow-[inset_3px_0_0_var(--color-blue-600)] dark:data-[marked]:bg-blue-950';
