/**
 * Palette ranking, hand-written because cmdk's filter re-scores every item through the DOM and
 * cannot keep up with 10,000 entities in one frame. Items carry a precomputed lower-case
 * haystack; a query scores by where it matches: a prefix of the title beats a word start beats
 * a substring beats a fuzzy subsequence. Returns the best `limit` items, best first.
 */
export interface Rankable {
  /** Lower-case title, searched first. */
  title: string;
  /** Lower-case extra words (id, email, category), searched second. */
  extra: string;
  /** Small bias so commands outrank entities on equal matches. */
  boost?: number;
}

function subsequence(needle: string, hay: string): number {
  let j = 0;
  let gaps = 0;
  let last = -1;
  for (let i = 0; i < hay.length && j < needle.length; i++) {
    if (hay.charCodeAt(i) === needle.charCodeAt(j)) {
      if (last >= 0) gaps += i - last - 1;
      last = i;
      j++;
    }
  }
  return j === needle.length ? gaps : -1;
}

export function score(query: string, item: Rankable): number {
  if (!query) return 1 + (item.boost ?? 0);
  const t = item.title;
  const at = t.indexOf(query);
  let s = 0;
  if (at === 0) s = 100 - Math.min(t.length - query.length, 20) * 0.1;
  else if (at > 0) s = t.charCodeAt(at - 1) === 32 || t.charCodeAt(at - 1) === 46 ? 80 : 60;
  else {
    const ex = item.extra.indexOf(query);
    if (ex >= 0) s = 50;
    else {
      const gaps = subsequence(query, t);
      if (gaps >= 0) s = Math.max(1, 30 - gaps);
      else return 0;
    }
  }
  return s + (item.boost ?? 0);
}

/**
 * Several words that do not match as one text still match when each word does, in any order and
 * anywhere (title or extra), as the server's search matches them (GET /api/search): "web-042
 * disk" finds "critical disk usage · web-042…", whose text holds both words but not that phrase.
 * Scored by the weakest word, below any match of the whole text.
 */
function scoreWords(words: readonly string[], item: Rankable): number {
  let weakest = Infinity;
  for (const word of words) {
    const s = score(word, item);
    if (s <= 0) return 0;
    if (s < weakest) weakest = s;
  }
  return Math.max(1, weakest - 10);
}

export function rank<T extends Rankable>(items: readonly T[], rawQuery: string, limit = 500): T[] {
  const query = rawQuery.trim().toLowerCase();
  const words = query.split(/\s+/);
  const scored: { item: T; s: number }[] = [];
  for (const item of items) {
    let s = score(query, item);
    if (s <= 0 && words.length > 1) s = scoreWords(words, item);
    if (s > 0) scored.push({ item, s });
  }
  scored.sort((a, b) => b.s - a.s);
  return (scored.length > limit ? scored.slice(0, limit) : scored).map((x) => x.item);
}
