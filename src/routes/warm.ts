/**
 * What a route's loader does with the queries its screen reads: `ensureQueryData` with the same
 * query options the screen's `useQuery` uses (TanStack Router's kitchen-sink pattern), so the
 * answers arrive while the screen's code downloads, or while a link is only hovered
 * (`defaultPreload: 'intent'`). `ensureQueryData` asks only for what is not cached: a loader re-run
 * (a filter typed) does not refetch the rest.
 *
 * Not awaited: each screen shows its own loading state in its own place, and one slow answer holds
 * up nothing (docs/benchmarks.md "npm run bench -- dashboard"). Settled, not caught: a failed request stays in the
 * query's state, and the screen, reading the same options, shows that error as its own (SPEC's
 * texts, "Server not found"…) instead of a route error page.
 */
export function warm(...queries: Promise<unknown>[]): void {
  void Promise.allSettled(queries);
}
