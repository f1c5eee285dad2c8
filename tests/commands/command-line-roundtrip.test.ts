import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allCommands } from '../../commands';
import { defineCommand } from '../../commands/define-command';
import { commandLineFor } from '../../server/contract/format-command-line';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { SECRET_KEYS } from '../../commands/redact';
import { rerunnableLine } from '../../commands/rerunnable-line';
import { commandExamples } from './examples';

/**
 * Issue 13: the history records a command line that re-runs exactly as written. For every
 * command's example input, the recorded line parses back to an input the command reads the same
 * way (format → parse → same input); generated values check the spelling rules themselves.
 */

const find = (id: string) => allCommands.find((c) => c.id === id);

describe('every command example re-runs from its recorded line', () => {
  it.each(allCommands.map((c) => [c.id]))('%s', (id) => {
    const def = find(id)!;
    const example = commandExamples[id as keyof typeof commandExamples] as Record<string, unknown>;
    const line = rerunnableLine(def, example);
    expect(line, `${id} ${JSON.stringify(example)}`).not.toBeNull();
    const back = parseCommandLine(line!, find);
    expect(back.id).toBe(id);
    const secrets = new Set((def.args ?? []).filter((a) => a.kind === 'password' || SECRET_KEYS.test(a.name)).map((a) => a.name));
    const given = Object.fromEntries(Object.entries(example).filter(([k]) => !secrets.has(k)));
    for (const k of secrets) expect(line).not.toContain(String(example[k]));
    const a = def.input.safeParse(given);
    const b = def.input.safeParse(back.input);
    // Commands with a secret argument do not parse without it; their lines spell the rest as given.
    if (secrets.size) expect(Object.keys(back.input).sort()).toEqual(Object.keys(given).sort());
    else {
      expect(b.success, JSON.stringify(b.error?.issues)).toBe(true);
      expect(b.data).toEqual(a.data);
    }
  });

  it('spells what screens pass as the command line reads it (lists, numbers, booleans)', () => {
    const group = find('group.create')!;
    const input = { name: 'Ops team', emails: ['ops@example.com', 'oncall@example.com'], emailEnabled: false, slackEnabled: true, slackChannel: '#ops' };
    const line = rerunnableLine(group, input);
    expect(line).toBe('group.create --name "Ops team" --emails "ops@example.com, oncall@example.com" --emailEnabled false --slackEnabled --slackChannel #ops');
    expect(group.input.parse(parseCommandLine(line!, find).input)).toEqual(group.input.parse(input));
    const server = find('server.create')!;
    expect(rerunnableLine(server, { hostname: 'web-01', ipaddress: '10.0.0.1', os: 'linux', port: 9182 })).toBe('server.create --hostname web-01 --ipaddress 10.0.0.1 --os linux --port 9182');
  });

  it('leaves out a line that would not re-run: a field the command line cannot name', () => {
    expect(rerunnableLine(find('server.toggle-maintenance')!, { server: 'web-01', mode: 'on', extra: 1 })).toBeNull();
    expect(rerunnableLine(find('server.toggle-maintenance')!, 'web-01')).toBeNull();
  });
});

describe('format → parse keeps every value (generated)', () => {
  const probe = defineCommand({
    id: 'test.probe',
    title: 'Probe',
    category: 'Test',
    input: z.object({ text: z.string().optional(), other: z.string().optional(), count: z.number().optional(), flag: z.boolean().optional(), list: z.union([z.array(z.string()), z.string()]).optional() }),
    args: [
      { name: 'text', label: 'Text', kind: 'text', positional: true },
      { name: 'other', label: 'Other', kind: 'text', optional: true },
      { name: 'count', label: 'Count', kind: 'number', optional: true },
      { name: 'flag', label: 'Flag', kind: 'boolean', optional: true },
      { name: 'list', label: 'List', kind: 'text', optional: true },
    ],
    run: () => ({}),
  });
  const findProbe = (id: string) => (id === probe.id ? probe : undefined);
  // Any text a person could type or paste: quotes, backslashes, leading dashes, "=", spaces, newlines, emoji.
  const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.stringMatching(/^[-=\\"' \t\na-z]{0,12}$/), fc.constantFrom('--', '-6h', '--x=y', '"', "'", '\\', ' ', '', 'a b', 'ün'));

  it('text, numbers and booleans come back as given', () => {
    fc.assert(
      fc.property(
        fc.record({ text, other: text, count: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })), flag: fc.boolean() }, { requiredKeys: [] }),
        (input) => {
          const line = commandLineFor(probe.id, input, probe.args);
          expect(parseCommandLine(line, findProbe).input).toEqual(Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Object.is(v, -0) ? 0 : v])));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('lists come back as the one text list arguments take', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9.@+-]{1,12}$/), { maxLength: 5 }), (list) => {
        const line = commandLineFor(probe.id, { list }, probe.args);
        expect(parseCommandLine(line, findProbe).input).toEqual(list.length ? { list: list.join(', ') } : { list: '' });
      }),
    );
  });
});
