import { z } from 'zod';
import { escapeMarkdown } from '../../server/contract/alert-text';
import type { ContactMethod } from '../../server/contract/contact-methods';
import { ApiError, type Api } from '../../src/api/client';
import { listContactMethods } from '../../src/api/contact-methods';
import type { ArgSpec, CommandContext } from '../define-command';
import { CommandError } from '../registry';
import { resolveUser } from '../user/resolve-user';

/**
 * What the contact.* commands share: whose methods (yours, or with `--user` anyone's for an
 * admin), and a method named by its label (any case) or id.
 */
export const personShape = { user: z.string().trim().min(1).optional() };
export const methodShape = { method: z.string().trim().min(1, 'method is required') };

export const userArg = { name: 'user', label: 'Whose (admins: anyone; default you)', kind: 'entity', entity: 'user', optional: true, inPalette: false } as const satisfies ArgSpec;
export const methodArg = { name: 'method', label: 'Contact method (label)', kind: 'entity', entity: 'contact-method', positional: true } as const satisfies ArgSpec;

/** The person a run is about: the signed-in one, or the user named (an id, a username or an email). */
export async function resolvePerson(ctx: CommandContext, user: string | undefined): Promise<{ _id: string; username: string }> {
  if (!user || !ctx.user) {
    if (!ctx.user) throw new CommandError('Sign in first');
    return ctx.user;
  }
  const wanted = user.trim().toLowerCase();
  if (wanted === ctx.user.username.toLowerCase() || user.trim() === ctx.user._id) return ctx.user;
  return resolveUser(ctx.api, user);
}

/** One of the person's methods by label (any case) or id; the refusal lists the labels there are. */
export async function resolveContact(api: Api, person: { _id: string; username: string }, ref: string): Promise<ContactMethod> {
  const { result } = await listContactMethods(api, person._id).catch(commandError);
  const wanted = ref.trim().toLowerCase();
  const found = result.data.find((m) => m._id === ref.trim() || m.label.toLowerCase() === wanted);
  if (found) return found;
  const labels = result.data.map((m) => m.label).join(', ');
  throw new CommandError(`${person.username} has no contact method "${ref}"${labels ? ` (there are: ${labels})` : ''}`);
}

/** An API refusal as the run's own error, in the server's words. */
export function commandError(err: unknown): never {
  if (err instanceof ApiError) throw new CommandError(err.message);
  throw err;
}

export const whose = (ctx: CommandContext, person: { _id: string; username: string }) => (ctx.user?._id === person._id ? 'your' : `${escapeMarkdown(person.username)}’s`);
