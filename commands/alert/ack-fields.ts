import { z } from 'zod';
import { MAX_NOTE } from '../../server/contract/alerts';
import type { ArgSpec } from '../define-command';
import { matchingFilterShape } from '../alerts/matching-filter';
import { formatDuration } from '../../server/contract/duration';
import { boundedDurationSchema } from './alert-fields';

/**
 * Shared by alert.ack / alert.unack and their bulk forms (issue 14 §1). Unlike a status change an
 * acknowledgement needs no note ("I'm on it" is the message); one may be given.
 */
export const optionalNoteSchema = z.string().trim().max(MAX_NOTE, `The note is too long (at most ${MAX_NOTE} characters)`).optional();
export const ackDurationSchema = boundedDurationSchema('An acknowledgement');

export const optionalNoteArg = { name: 'note', label: 'Note', kind: 'text', optional: true, placeholder: 'Optional: what you are doing (markdown)' } as const satisfies ArgSpec;
export const ackForArg = { name: 'for', label: 'Acknowledge for', kind: 'text', optional: true, placeholder: 'e.g. 30m, 2h (empty: until it resolves)' } as const satisfies ArgSpec;

/** `alert.ack` / `alert.unack` take an alert, or the bulk filter instead (handed over to the -matching command). */
export const oneOrFilterShape = { alert: z.string().trim().min(1, 'alert is required').optional(), ...matchingFilterShape };

/** "until it resolves" / "for 2h" */
export const ackSpan = (seconds: number | undefined) => (seconds ? `for ${formatDuration(seconds)}` : 'until it resolves');

