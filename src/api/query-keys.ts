import type { ListQuery } from '../../server/contract/common';

/** Query-key factories: invalidate by prefix (e.g. queryKeys.users.all) rather than everything. */
export const queryKeys = {
  auth: { whoami: ['auth', 'whoami'] as const },
  users: {
    all: ['users'] as const,
    list: (q: ListQuery) => ['users', 'list', q] as const,
    one: (id: string) => ['users', 'one', id] as const,
  },
  commandHistory: {
    all: ['command-history'] as const,
    list: (q: ListQuery) => ['command-history', 'list', q] as const,
  },
};
