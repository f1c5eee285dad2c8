import { describe, expect, it } from 'vitest';
import { aliasOf, expandAlias } from './aliases';
import { completeCommandLine } from './complete-command-line';
import { allCommands } from './index';

const aliases = [
  { name: 'ack1h', line: 'alert.snooze --for 1h' },
  { name: 'maint', line: 'server.toggle-maintenance --mode on' },
];

describe('aliases on the command line', () => {
  it('put the alias line in place of the first word and keep what follows', () => {
    expect(expandAlias('ack1h web-01 --note "disk"', aliases)).toBe('alert.snooze --for 1h web-01 --note "disk"');
    expect(expandAlias('  ACK1H', aliases)).toBe('alert.snooze --for 1h');
    expect(expandAlias('alert.snooze x', aliases)).toBe('alert.snooze x');
    expect(expandAlias('ack1hx web', aliases)).toBe('ack1hx web');
    expect(aliasOf('maint db-01', aliases)?.line).toBe('server.toggle-maintenance --mode on');
  });

  it('complete like commands, and complete their arguments as the line’s command would', async () => {
    const none = async () => [];
    expect(await completeCommandLine('ack', allCommands, none, aliases)).toEqual({ line: 'ack1h ', candidates: ['ack1h'] });
    expect((await completeCommandLine('ma', allCommands, none, aliases)).candidates).toContain('maint');
    expect(await completeCommandLine('ack1h web --no', allCommands, none, aliases)).toEqual({ line: 'ack1h web --note ', candidates: ['--note'] });
    const servers = async () => ['web-01', 'web-02'];
    expect((await completeCommandLine('maint we', allCommands, servers, aliases)).line).toBe('maint web-0');
  });
});
