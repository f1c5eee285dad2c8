import type { RouterHistory } from '@tanstack/react-router';
import { useEffect, useMemo, useRef } from 'react';
import type { CommandContext } from '../../../commands/define-command';
import { canMove, loadViews, nextViews, saveViews, type ViewLocation, type ViewState } from '../../lib/view-history';
import { tabStore } from '../../lib/web-storage';

/** The router as far as moving between views needs it. */
interface ViewRouter {
  history: RouterHistory;
  navigate: (options: { href: string }) => Promise<void>;
}

const locationOf = (router: ViewRouter): ViewLocation => {
  const l = router.history.location;
  return { pathname: l.pathname, href: l.href, index: l.state.__TSR_index ?? 0 };
};

/**
 * The command context's `views` (`[`, `]`, `-`): follows the browser history of this tab and
 * moves through it with the router, so a move passes the same blockers (unsaved edits) as a link.
 */
export function useViewHistory(router: ViewRouter): NonNullable<CommandContext['views']> {
  const state = useRef<ViewState | null>(null);
  if (state.current === null) state.current = nextViews(loadViews(tabStore), locationOf(router), 'REPLACE');
  useEffect(
    () =>
      router.history.subscribe(({ location, action }) => {
        const next = nextViews(state.current!, { pathname: location.pathname, href: location.href, index: location.state.__TSR_index ?? 0 }, action.type);
        state.current = next;
        saveViews(tabStore, next);
      }),
    [router],
  );
  return useMemo(
    () => ({
      can: (move) => canMove(state.current!, move),
      go: (move) => {
        if (move === 'back') router.history.back();
        else if (move === 'forward') router.history.forward();
        else if (state.current!.previous) void router.navigate({ href: state.current!.previous.href });
      },
    }),
    [router],
  );
}
