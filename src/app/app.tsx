import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { signout } from '../api/auth';
import { api, onUnauthorized } from '../api/client';
import { Toaster, toast } from '../components/ui/toast';
import { clearStoredUser } from '../lib/stored-user';
import { createAppRouter } from './router';

/** How long an answer a route loader fetched counts as the screen's own (a busy machine takes seconds between the two). */
const LOADER_ANSWER_FRESH_MS = 2_000;

/** Calls that answer 401 as part of their normal job; everything else means the session ended. */
const AUTH_PATHS = /^\/?auth\/(whoami|signin|signout)$/;

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            retry: (count, err) => count < 2 && (err as { status?: number }).status === undefined,
            refetchOnWindowFocus: false,
            // A screen opened on its route loader's answer (src/routes/warm.ts) does not ask again
            // as it mounts: an answer younger than this is the one just fetched for it. Data a
            // command invalidated is always fetched again.
            refetchOnMount: (query) => query.state.isInvalidated || Date.now() - query.state.dataUpdatedAt > LOADER_ANSWER_FRESH_MS,
          },
        },
      }),
  );
  const [router] = useState(() => createAppRouter(queryClient));

  // SPEC §8: on a 401 call signout; if it succeeds clear the stored user and go to /logout,
  // otherwise tell the person to sign in again. The HTTP client only reports; the shell decides.
  useEffect(
    () =>
      onUnauthorized((path) => {
        if (AUTH_PATHS.test(path)) return;
        signout(api).then(
          () => {
            clearStoredUser();
            queryClient.clear();
            void router.navigate({ to: '/logout' });
          },
          () => toast('error', 'Please login again from the portal'),
        );
      }),
    [queryClient, router],
  );

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>
  );
}
