import { z } from 'zod';
import { MAX_TEXT } from './common';

export const commandSources = ['palette', 'cmdline', 'ui', 'hotkey', 'link', 'api', 'history'] as const;
export type CommandSource = (typeof commandSources)[number];
export const commandOutcomes = ['ok', 'error', 'cancelled', 'refused'] as const;

/** One run of a command: the team's incident log. `who` is filled in by the server from the session. */
export const commandHistoryEntrySchema = z.object({
  _id: z.string(),
  userId: z.string().nullable(),
  username: z.string(),
  command: z.string(),
  input: z.unknown(),
  source: z.enum(commandSources),
  outcome: z.enum(commandOutcomes),
  error: z.string().nullable(),
  durationMs: z.number(),
  createdAt: z.string(),
});
export type CommandHistoryEntry = z.infer<typeof commandHistoryEntrySchema>;

export const createCommandHistorySchema = z
  .object({
    command: z.string().min(1).max(100),
    input: z.unknown().refine((v) => JSON.stringify(v ?? null).length <= 10_000, 'input is too large (at most 10000 characters as JSON)').optional(),
    source: z.enum(commandSources),
    outcome: z.enum(commandOutcomes),
    error: z.string().max(MAX_TEXT * 4).nullable().optional(),
    durationMs: z.number().min(0).max(86_400_000),
  })
  .strict();
export type CreateCommandHistory = z.input<typeof createCommandHistorySchema>;

export const commandHistorySortable = ['createdAt', 'command', 'username'] as const;
export const commandHistoryFilterable = { command: ['contains', 'eq', 'in'], username: ['contains', 'eq'], outcome: ['in', 'eq'], source: ['in', 'eq'], createdAt: ['between'] } as const;
