import type { User } from '../../server/contract/users';
import { getUser, listUsers } from '../../src/api/users';
import type { Api } from '../../src/api/client';
import { ApiError } from '../../src/api/client';
import { CommandError } from '../registry';
import { isUuid } from '../../server/contract/ids';

/** `user` arguments take an id, a username or an email, so `user.delete ann` works. */
export async function resolveUser(api: Api, ref: string): Promise<User> {
  const value = ref.trim();
  if (isUuid(value)) {
    try {
      return (await getUser(api, value)).result;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
  }
  const field = value.includes('@') ? 'email' : 'username';
  const { result } = await listUsers(api, { pageNumber: 1, pageSize: 2, filter: { [field]: { eq: value } } });
  if (result.data.length === 1) return result.data[0]!;
  if (result.data.length > 1) throw new CommandError(`Several users are called "${value}": use the email or the id`);
  throw new CommandError(`No user matches "${value}"`);
}
