import type { PersonalToken } from '../../server/contract/tokens';
import type { Api } from '../../src/api/client';
import { listTokens } from '../../src/api/tokens';
import { CommandError } from '../registry';

/** One of your live tokens by id, name (any case) or prefix: tokens are few, so they are listed and matched here. */
export async function resolveToken(api: Api, text: string): Promise<PersonalToken> {
  const { result } = await listTokens(api);
  const live = result.data.filter((t) => !t.revokedAt);
  const wanted = text.trim().toLowerCase();
  const found = live.filter((t) => t._id === text.trim() || t.name.toLowerCase() === wanted || t.prefix.toLowerCase() === wanted);
  if (found.length === 1) return found[0]!;
  const names = live.map((t) => t.name).join(', ');
  throw new CommandError(found.length ? `"${text}" names several tokens; use the id` : `You have no live API token "${text}"${names ? ` (yours: ${names})` : ''}`);
}
