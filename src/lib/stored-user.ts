import type { Whoami } from '../../server/contract/auth';

/** SPEC §3/§4: the signed-in user is also kept in localStorage under `user`. */
const KEY = 'user';

export function storeUser(user: Whoami): void {
  localStorage.setItem(KEY, JSON.stringify(user));
}

export function clearStoredUser(): void {
  localStorage.removeItem(KEY);
}

export function readStoredUser(): Whoami | null {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? 'null') as Whoami | null;
  } catch {
    return null;
  }
}
