import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCommand } from './define-command';
import { parseCommandLine, tokenize } from '../server/contract/parse-command-line';

const create = defineCommand({
  id: 'user.create',
  title: 'Create user',
  category: 'Users',
  input: z.object({ username: z.string(), email: z.string(), admin: z.boolean().optional() }),
  args: [
    { name: 'username', label: 'Username', kind: 'text' },
    { name: 'email', label: 'Email', kind: 'text' },
    { name: 'admin', label: 'Admin', kind: 'boolean', optional: true },
  ],
  run: () => ({}),
});
const del = defineCommand({
  id: 'user.delete',
  title: 'Delete user',
  category: 'Users',
  input: z.object({ user: z.string() }),
  args: [{ name: 'user', label: 'User', kind: 'entity', entity: 'user', positional: true }],
  run: () => ({}),
});
const find = (id: string) => [create, del].find((c) => c.id === id);

describe('tokenize', () => {
  it('splits on spaces and keeps quoted words whole', () => {
    expect(tokenize(`a --b "Ann Lee" 'x y' c\\ d`)).toEqual(['a', '--b', 'Ann Lee', 'x y', 'c d']);
  });
  it('keeps an empty quoted value', () => {
    expect(tokenize(`a ""`)).toEqual(['a', '']);
  });
  it('rejects an unclosed quote', () => {
    expect(() => tokenize('a "b')).toThrow(/Unclosed quote/);
  });
});

describe('parseCommandLine', () => {
  it('reads --name value pairs', () => {
    expect(parseCommandLine('user.create --username ann --email ann@example.com', find)).toEqual({
      id: 'user.create',
      input: { username: 'ann', email: 'ann@example.com' },
    });
  });
  it('reads --name=value and bare boolean flags', () => {
    expect(parseCommandLine('user.create --username=ann --admin --email a@b', find).input).toEqual({ username: 'ann', admin: true, email: 'a@b' });
  });
  it('fills positional arguments in order', () => {
    expect(parseCommandLine('user.delete ann', find)).toEqual({ id: 'user.delete', input: { user: 'ann' } });
  });
  it('names the unknown command', () => {
    expect(() => parseCommandLine('user.nope', find)).toThrow(/Unknown command "user.nope"/);
  });
  it('names the unknown argument and lists the known ones', () => {
    expect(() => parseCommandLine('user.create --nick ann', find)).toThrow(/no argument --nick .*--username/);
  });
  it('refuses extra positional words', () => {
    expect(() => parseCommandLine('user.delete ann bob', find)).toThrow(/Unexpected "bob"/);
  });
  it('asks for a value after a non-boolean flag', () => {
    expect(() => parseCommandLine('user.create --username', find)).toThrow(/needs a value/);
  });
});
