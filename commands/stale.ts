import type { CommandContext } from './define-command';

/** Invalidates every key of a `staleAfter` set (src/api/query-keys.ts) at once. */
export async function invalidateAll(ctx: CommandContext, keys: readonly (readonly unknown[])[]): Promise<void> {
  await Promise.all(keys.map((key) => ctx.invalidate(key)));
}
