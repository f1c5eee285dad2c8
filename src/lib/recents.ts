/**
 * What a person used lately from the palette and the command line (issue 13, "recents"):
 * commands, aliases and the things they opened or picked (servers, alerts, users…), each with a
 * frecency score — uses counted with a half-life, so something used often last week and
 * something used once an hour ago both rank high. Kept per person in the browser's storage.
 */
export interface RecentEntity {
  kind: string;
  id: string;
  title: string;
  subtitle: string;
  value: string;
  completion: string;
  /** The host it is on or is: things on a host used lately rank up in the palette. */
  host?: string;
}

export interface RecentEntry {
  /** `cmd:<id>`, `alias:<name>` or `<kind>:<id>` (the palette's item keys). */
  key: string;
  /** Decayed use count as of `at`. */
  score: number;
  at: number;
  /** For entities: enough to show and choose it without asking the API again. */
  entity?: RecentEntity;
}

export interface KeyValue {
  get: (key: string) => string | null;
  set: (key: string, value: string) => void;
}

const HALF_LIFE_MS = 3 * 24 * 3600_000;
const KEEP = 200;

/** The score `entry` has decayed to at `now`. */
export const frecency = (entry: Pick<RecentEntry, 'score' | 'at'>, now: number) => entry.score * 0.5 ** (Math.max(0, now - entry.at) / HALF_LIFE_MS);

export interface Recents {
  /** Counts one use. */
  record: (key: string, entity?: RecentEntity) => void;
  /** Most frecent first. */
  top: (limit: number, now?: number) => RecentEntry[];
  /** key → frecency now, for ranking (0 for keys never used). */
  scores: (now?: number) => Map<string, number>;
  /** Changes on every record, for memoised views. */
  revision: () => number;
}

export function createRecents(storage: KeyValue, userId: string, clock: () => number = Date.now): Recents {
  const storageKey = `opsdeck.recents.${userId}`;
  let entries: RecentEntry[] = [];
  try {
    const saved = JSON.parse(storage.get(storageKey) ?? '[]') as unknown;
    if (Array.isArray(saved)) entries = saved.filter((e): e is RecentEntry => !!e && typeof e.key === 'string' && typeof e.score === 'number' && typeof e.at === 'number');
  } catch {
    // Unreadable: start over.
  }
  let rev = 0;
  const byScore = (now: number) => [...entries].sort((a, b) => frecency(b, now) - frecency(a, now));
  return {
    record(key, entity) {
      const now = clock();
      const old = entries.find((e) => e.key === key);
      const next: RecentEntry = { key, score: (old ? frecency(old, now) : 0) + 1, at: now, entity: entity ?? old?.entity };
      entries = byScore(now)
        .filter((e) => e.key !== key)
        .slice(0, KEEP - 1);
      entries.unshift(next);
      rev++;
      try {
        storage.set(storageKey, JSON.stringify(entries));
      } catch {
        // Full storage: recents are a convenience.
      }
    },
    top: (limit, now = clock()) => byScore(now).slice(0, limit),
    scores: (now = clock()) => new Map(entries.map((e) => [e.key, frecency(e, now)])),
    revision: () => rev,
  };
}
