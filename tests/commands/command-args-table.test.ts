import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commandArgsSource } from '../../scripts/command-args';

describe('the server’s table of command arguments', () => {
  it('is what the registry declares (run `npx tsx scripts/command-args.ts` after changing a command’s arguments)', () => {
    expect(readFileSync(new URL('../../server/audit/command-args.ts', import.meta.url), 'utf8')).toBe(commandArgsSource());
  });
});
