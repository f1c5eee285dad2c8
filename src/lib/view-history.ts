/**
 * Back and forward through visited views (issue 13: `[`, `]`, `-`), on the browser's own history
 * so the Back button and the keys agree: `[` and `]` are history.back() and forward(); `-` goes
 * to the view before this one (another path), and pressing it again comes back, like `cd -`.
 * Tracks what the browser does not say: whether there is a forward entry (the furthest index
 * reached since the last new entry) and the last two views. Kept per tab across reloads.
 */
export type ViewMove = 'back' | 'forward' | 'previous';

export interface ViewLocation {
  pathname: string;
  href: string;
  /** TanStack history's position of this entry (`state.__TSR_index`). */
  index: number;
}

export interface ViewState {
  /** The furthest history index reachable with forward. */
  furthest: number;
  current: ViewLocation | null;
  previous: ViewLocation | null;
}

export const EMPTY_VIEWS: ViewState = { furthest: 0, current: null, previous: null };

/** The state after the browser moved to `to` by `action` (a new entry, a replacement, or back/forward/go). */
export function nextViews(state: ViewState, to: ViewLocation, action: 'PUSH' | 'REPLACE' | 'BACK' | 'FORWARD' | 'GO'): ViewState {
  const furthest = action === 'PUSH' ? to.index : Math.max(state.furthest, to.index);
  // Another path is another view; a new search of the same path is the same view, moved on.
  if (state.current && state.current.pathname !== to.pathname) return { furthest, current: to, previous: state.current };
  return { furthest, current: to, previous: state.previous };
}

/** true, or why the move cannot be made now. */
export function canMove(state: ViewState, move: ViewMove): true | string {
  const at = state.current?.index ?? 0;
  if (move === 'back') return at > 0 ? true : 'No earlier view in this tab.';
  if (move === 'forward') return at < state.furthest ? true : 'No later view: you are at the newest.';
  return state.previous ? true : 'No other view visited yet.';
}

const KEY = 'opsdeck.views';

export function loadViews(storage: { get: (k: string) => string | null }): ViewState {
  try {
    const saved = JSON.parse(storage.get(KEY) ?? 'null') as ViewState | null;
    return saved && typeof saved.furthest === 'number' ? saved : EMPTY_VIEWS;
  } catch {
    return EMPTY_VIEWS;
  }
}

export function saveViews(storage: { set: (k: string, v: string) => void }, state: ViewState): void {
  storage.set(KEY, JSON.stringify(state));
}
