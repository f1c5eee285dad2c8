import type { SecretBox } from '../../channels/secret-box';

/**
 * A check's request headers at rest (issue 25 §4): the names in the clear (the API shows them),
 * each value sealed with the box that seals channel secrets (AES-256-GCM, OPSDECK_SECRET_KEY or
 * DATA_DIR/secret.key), bound to the check's id and the header's name, so a sealed value copied
 * onto another check or header does not open there. `{name, value}` is how values were stored
 * before they were sealed; `sealStoredHeaders` seals those at start.
 */
export type StoredHeader = { name: string; sealed: string } | { name: string; value: string };
export interface PlainHeader {
  name: string;
  value: string;
}

const boundTo = (checkId: string, name: string) => `check-header:${checkId}:${name.toLowerCase()}`;

export class CheckHeadersUnreadable extends Error {
  constructor() {
    super("The check's headers cannot be read: OPSDECK_SECRET_KEY is not the key they were stored with. Edit the check and enter its headers again.");
  }
}

export function sealHeaders(box: SecretBox, checkId: string, headers: PlainHeader[]): StoredHeader[] {
  return headers.map((h) => ({ name: h.name, sealed: box.seal(h.value, boundTo(checkId, h.name)) }));
}

/** The values to send; throws CheckHeadersUnreadable when one was sealed with another key. */
export function openHeaders(box: SecretBox | undefined, checkId: string, stored: StoredHeader[] | string | null | undefined): PlainHeader[] {
  const list = (typeof stored === 'string' ? JSON.parse(stored) : (stored ?? [])) as StoredHeader[];
  return list.map((h) => {
    if ('value' in h) return { name: h.name, value: h.value };
    if (!box) throw new CheckHeadersUnreadable();
    try {
      return { name: h.name, value: box.open(h.sealed, boundTo(checkId, h.name)) };
    } catch {
      throw new CheckHeadersUnreadable();
    }
  });
}

interface Queryable {
  query: <T>(sql: string, params?: unknown[]) => Promise<T[]>;
}

/**
 * Seals header values stored in the clear (by a version before sealing), keeping every value: run
 * at start, before the checks are read. Each row is replaced only if it still holds what was
 * read (a replica starting at the same moment sealed it already, or an edit came in between).
 * Answers how many checks it sealed.
 */
export async function sealStoredHeaders(database: Queryable, box: SecretBox): Promise<number> {
  const rows = await database.query<{ id: string; headers: StoredHeader[] | string }>(
    `select id, headers from checks where exists (select 1 from jsonb_array_elements(headers) h where h ? 'value')`,
  );
  let sealed = 0;
  for (const row of rows) {
    const stored = (typeof row.headers === 'string' ? JSON.parse(row.headers) : row.headers) as StoredHeader[];
    const next = stored.map((h) => ('value' in h ? sealHeaders(box, row.id, [h])[0]! : h));
    const done = await database.query<{ id: string }>(`update checks set headers = $2::jsonb where id = $1 and headers = $3::jsonb returning id`, [
      row.id,
      JSON.stringify(next),
      JSON.stringify(stored),
    ]);
    sealed += done.length;
  }
  return sealed;
}
