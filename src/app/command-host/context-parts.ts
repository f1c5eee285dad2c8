import type { QueryClient } from '@tanstack/react-query';
import type { useNavigate } from '@tanstack/react-router';
import type { CommandContext } from '../../../commands/define-command';
import { api } from '../../api/client';
import { queryKeys } from '../../api/query-keys';
import { getColorMode, setColorMode } from '../../lib/color-mode';
import { openPanel } from '../../lib/shell-events';
import { clearStoredUser, storeUser } from '../../lib/stored-user';

/**
 * What every command context holds, signed in or out: the API, navigation, query invalidation,
 * the colour mode and panels, and the session's sign-in / sign-out (which the rest of the app
 * reads through the whoami query and the stored user).
 */
export function sharedContextParts(
  navigate: ReturnType<typeof useNavigate>,
  queryClient: QueryClient,
): Pick<CommandContext, 'api' | 'navigate' | 'invalidate' | 'ui' | 'session'> {
  return {
    api,
    // `href`, not `to`: command paths may carry a query string (`?view=calendar`), which `to` would keep in the path.
    navigate: (to, options) => void navigate({ href: to, ...(options?.replace ? { replace: true } : {}) }),
    invalidate: (queryKey) => queryClient.invalidateQueries({ queryKey }),
    ui: { colorMode: getColorMode, setColorMode, open: (p, options) => openPanel(p, options) },
    session: {
      signedIn: (u) => {
        storeUser(u);
        queryClient.setQueryData(queryKeys.auth.whoami, { result: u });
      },
      signedOut: () => {
        clearStoredUser();
        queryClient.removeQueries();
      },
    },
  };
}
