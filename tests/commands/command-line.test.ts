import { describe, expect, it, vi } from 'vitest';
import { allCommands, createAppRegistry } from '../../commands';
import { commandLink } from '../../commands/command-link';
import { completeCommandLine } from '../../commands/complete-command-line';
import { commandLineFor } from '../../server/contract/format-command-line';
import { parseCommandLine } from '../../server/contract/parse-command-line';

const registry = createAppRegistry();
const noValues = async () => [] as string[];

describe('Tab completion', () => {
  it('completes a unique command id and adds a space', async () => {
    expect((await completeCommandLine('user.cr', allCommands, noValues)).line).toBe('user.create ');
  });

  it('keeps the common prefix and lists the candidates when several match', async () => {
    const r = await completeCommandLine('user.set-', allCommands, noValues);
    expect(r.line).toBe('user.set-');
    expect(r.candidates).toEqual(expect.arrayContaining(['user.set-email', 'user.set-phone', 'user.set-role']));
  });

  it('completes --argument names the line has not used yet', async () => {
    const r = await completeCommandLine('user.create --username ann --e', allCommands, noValues);
    expect(r.line).toBe('user.create --username ann --email ');
    const rest = await completeCommandLine('user.create --username ann --', allCommands, noValues);
    expect(rest.candidates).not.toContain('--username');
    expect(rest.candidates).toContain('--password');
  });

  it('offers --print-api for commands that make API calls, once, and not for view-only ones', async () => {
    expect((await completeCommandLine('user.delete ann --pr', allCommands, noValues)).line).toBe('user.delete ann --print-api ');
    expect((await completeCommandLine('user.create --username ann --', allCommands, noValues)).candidates).toContain('--print-api');
    expect((await completeCommandLine('alert.resolve --', allCommands, noValues)).candidates).toContain('--print-api');
    expect((await completeCommandLine('user.delete --print-api --', allCommands, noValues)).candidates).not.toContain('--print-api');
    // View-only commands change nothing a curl could repeat.
    expect((await completeCommandLine('list.search --', allCommands, noValues)).candidates).toEqual(['--text']);
    expect((await completeCommandLine('nav.go-servers --p', allCommands, noValues)).candidates).toEqual([]);
    // The flag takes no value: the next word is still the positional argument.
    const values = vi.fn(async () => ['ann']);
    expect((await completeCommandLine('user.delete --print-api an', allCommands, values)).line).toBe('user.delete --print-api ann ');
  });

  it('completes enum values after their --argument', async () => {
    expect((await completeCommandLine('user.create --role sys', allCommands, noValues)).line).toBe('user.create --role sysadmin ');
  });

  it('asks the caller for entity values of a positional argument, with the typed prefix', async () => {
    const values = vi.fn(async () => ['ann', 'anna']);
    const r = await completeCommandLine('user.delete an', allCommands, values);
    expect(values).toHaveBeenCalledWith(expect.objectContaining({ name: 'user', entity: 'user' }), 'an');
    expect(r.candidates).toEqual(['ann', 'anna']);
    expect(r.line).toBe('user.delete ann');
  });

  it('quotes a completed value with a space', async () => {
    const r = await completeCommandLine('user.show An', allCommands, async () => ['Ann Lee']);
    expect(r.line).toBe('user.show "Ann Lee" ');
  });

  it('offers nothing for an unknown command', async () => {
    expect(await completeCommandLine('nope.x --a', allCommands, noValues)).toEqual({ line: 'nope.x --a', candidates: [] });
  });
});

describe('commandLineFor and commandLink', () => {
  it('writes a line that parses back to the same input', () => {
    const input = { username: 'Ann Lee', email: 'ann@example.com', phonenumber: '+1 555', role: 'sysadmin' };
    const line = commandLineFor('user.create', input);
    expect(parseCommandLine(line, registry.get)).toEqual({ id: 'user.create', input });
  });

  it('makes a link the host reads back from ?cmd=', () => {
    const link = commandLink('user.show', { user: 'ann' });
    expect(link).toBe('/?cmd=user.show%20--user%20ann');
    const line = new URLSearchParams(link.slice(link.indexOf('?'))).get('cmd')!;
    expect(parseCommandLine(line, registry.get)).toEqual({ id: 'user.show', input: { user: 'ann' } });
  });
});
