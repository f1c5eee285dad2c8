import { z } from 'zod';
import type { Permission } from '../server/contract/permissions';
import { defineCommand } from './define-command';

export interface ListRefreshSpec<Id extends string> {
  id: Id;
  title: string;
  category: string;
  description: string;
  /** The prefix of the queries the list reads: every one under it is fetched again. */
  queryKey: readonly unknown[];
  /** Who may read the list; 'read' (everyone signed in) unless the list is narrower. */
  permission?: Permission;
}

/**
 * A list's Refresh (its button, the palette, the command line): no input, nothing recorded in
 * History, the list's queries fetched again. One shape for every list, so they cannot drift.
 */
export function defineListRefresh<const Id extends string>({ queryKey, permission = 'read', ...def }: ListRefreshSpec<Id>) {
  return defineCommand({
    ...def,
    input: z.object({}).strict(),
    permission,
    history: false,
    async run(_input, ctx) {
      await ctx.invalidate(queryKey);
      return {};
    },
  });
}
