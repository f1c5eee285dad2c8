import { z } from 'zod';
import { str } from './common';

/** Issue 13: a person's command aliases, e.g. `ack1h` → `alert.snooze --for 1h`. */
export const MAX_ALIASES = 100;
export const MAX_ALIAS_LINE = 1000;

/**
 * Letters, digits and hyphens, starting with a letter; never a dot, so an alias cannot shadow a
 * command id. Compared and stored lower-case.
 */
export const aliasNameSchema = str({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(40, 'is too long (at most 40 characters)')
  .regex(/^[a-z][a-z0-9-]*$/i, 'may hold letters, digits and hyphens and must start with a letter (names with a dot are commands)')
  .transform((s) => s.toLowerCase());

/** A command line to run in the alias's place: it starts with a command id; words typed after the alias are added to it. */
export const aliasLineSchema = str({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(MAX_ALIAS_LINE, `is too long (at most ${MAX_ALIAS_LINE} characters)`)
  .refine((s) => !/[\r\n]/.test(s), 'must be one line')
  .refine((s) => /^[a-z]+\.[a-z]+(-[a-z]+)*(\s|$)/.test(s), 'must start with a command id, e.g. alert.snooze --for 1h');

export const putAliasSchema = z.object({ line: aliasLineSchema }).strict();
export type PutAlias = z.input<typeof putAliasSchema>;

export const aliasSchema = z.object({
  _id: str(),
  name: str(),
  line: str(),
  createdAt: str(),
  updatedAt: str(),
});
export type Alias = z.infer<typeof aliasSchema>;
