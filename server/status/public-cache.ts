import type { PublicStatus } from '../contract/status-pages';

/** More slugs than this kept at once: the expired ones are dropped (random slugs, renamed pages). */
const PRUNE_ABOVE = 1000;

/**
 * The public status view of each slug, kept a few seconds (issue 16 §3 leftovers): a status page
 * is read by everyone at once exactly when something is down, and each build reads the page, its
 * servers and checks, 90 days of uptime and the incidents. Requests for one slug within `ttlMs`
 * share one build, including those that arrive while it is being built, and a slug with no page
 * is kept as such too (null), so a burst costs one pass over the database, not one per request.
 *
 * Any change made through the status-pages routes (an incident post or resolution, a page created,
 * edited or deleted) empties it, so the change shows on the next request; states and uptime from
 * monitoring are at most `ttlMs` old. Per process: each replica keeps its own, and a change made
 * through another replica shows within `ttlMs`.
 */
export class PublicStatusCache {
  private readonly entries = new Map<string, { until: number; view: Promise<PublicStatus | null> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The slug's view (null: no such page), built by `build` unless a fresh one is kept; a failed build is not kept. */
  get(slug: string, build: () => Promise<PublicStatus | null>): Promise<PublicStatus | null> {
    if (this.ttlMs <= 0) return build();
    const t = this.now();
    const kept = this.entries.get(slug);
    if (kept && kept.until > t) return kept.view;
    if (this.entries.size >= PRUNE_ABOVE) for (const [k, e] of this.entries) if (e.until <= t) this.entries.delete(k);
    // Set before the build runs, so a change that empties the cache meanwhile also drops this one.
    const entry = { until: t + this.ttlMs, view: build() };
    this.entries.set(slug, entry);
    entry.view.catch(() => {
      if (this.entries.get(slug) === entry) this.entries.delete(slug);
    });
    return entry.view;
  }

  /** A page changed (slugs may have moved too): every slug's next request builds anew. Changes are rare. */
  clear(): void {
    this.entries.clear();
  }
}
