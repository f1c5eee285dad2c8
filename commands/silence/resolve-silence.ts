import type { Silence } from '../../server/contract/routing';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { getSilence, listSilences, silencesQuery } from '../../src/api/silences';
import { CommandError } from '../registry';
import { isUuid } from '../../server/contract/ids';

/** `silence` arguments: an id, or words of the comment of exactly one current (active or pending) silence. */
export async function resolveSilence(api: Api, ref: string): Promise<Silence> {
  const value = ref.trim();
  if (!value) throw new CommandError('Name a silence: its id, or words of its comment');
  if (isUuid(value)) {
    try {
      return (await getSilence(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
      throw new CommandError(`No silence with id "${value}"`);
    }
  }
  const { result } = await listSilences(api, silencesQuery('current'));
  const lower = value.toLowerCase();
  const hits = result.data.filter((s) => s.comment.toLowerCase().includes(lower) || s._id.startsWith(lower));
  if (hits.length === 1) return hits[0]!;
  if (hits.length > 1) throw new CommandError(`${hits.length} silences match "${value}": ${hits.slice(0, 5).map((s) => `“${s.comment}” \`${s._id}\``).join(', ')}. Use the id.`);
  throw new CommandError(`No active or pending silence matches "${value}"`);
}
