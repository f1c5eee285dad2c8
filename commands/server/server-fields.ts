import { z } from 'zod';
import { createServerSchema, operatingSystems, type CreateServer } from '../../server/contract/servers';
import { ApiError } from '../../src/api/client';
import type { ArgSpec } from '../define-command';
import { CommandError } from '../registry';

/**
 * The editable fields of a server as commands name them (`--os`, `--port` read better on the
 * command line than the API's `operating_system` and `agentPort`). The rules are the contract's,
 * so the form, the command line and the server agree on what is valid.
 */
export const serverFieldsSchema = z.object({
  hostname: createServerSchema.shape.hostname,
  ipaddress: createServerSchema.shape.ipaddress,
  os: createServerSchema.shape.operating_system,
  port: createServerSchema.shape.agentPort.unwrap().optional(),
});
export type ServerFields = z.infer<typeof serverFieldsSchema>;
export type ServerField = keyof ServerFields;

export const osLabels: Record<(typeof operatingSystems)[number], string> = { linux: 'Linux', windows: 'Windows' };

export const serverFieldArgs = {
  hostname: { name: 'hostname', label: 'Hostname', kind: 'text', placeholder: 'Hostname, e.g. web-01' },
  ipaddress: { name: 'ipaddress', label: 'IP Address', kind: 'text', placeholder: 'IP address, e.g. 10.0.0.12' },
  os: { name: 'os', label: 'Operating System', kind: 'enum', options: operatingSystems.map((o) => ({ value: o, label: osLabels[o] })) },
  port: { name: 'port', label: 'Agent port', kind: 'number', placeholder: 'Agent port (default 9100)' },
} as const satisfies Record<ServerField, ArgSpec>;

const apiFieldToArg: Record<string, ServerField> = { hostname: 'hostname', ipaddress: 'ipaddress', operating_system: 'os', agentPort: 'port' };
const argToApiField: Record<ServerField, keyof CreateServer> = { hostname: 'hostname', ipaddress: 'ipaddress', os: 'operating_system', port: 'agentPort' };

/** Command field names to the API's body. */
export function toApiBody(fields: Partial<ServerFields>): Partial<CreateServer> {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body[argToApiField[k as ServerField]] = v;
  return body as Partial<CreateServer>;
}

/** A refusal that names the offending field, so a form can show it next to the input. */
export class ServerFieldError extends CommandError {
  constructor(
    message: string,
    readonly field: ServerField | undefined,
  ) {
    super(message, 'error');
    this.name = 'ServerFieldError';
  }
}

/** Turns the server's `{ field, message }` (a 400 or a 409) into a ServerFieldError; other errors pass. */
export function fieldError(err: unknown): unknown {
  if (!(err instanceof ApiError) || !err.field || !apiFieldToArg[err.field]) return err;
  // The server prefixes 400s with the field ("hostname: …"); next to the input that is noise.
  const message = err.message.startsWith(`${err.field}: `) ? err.message.slice(err.field.length + 2) : err.message;
  return new ServerFieldError(message, apiFieldToArg[err.field]);
}
