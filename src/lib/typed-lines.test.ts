import { describe, expect, it } from 'vitest';
import { createAppRegistry } from '../../commands';
import { createTypedLines, givesSecret } from './typed-lines';

const memory = () => {
  const m = new Map<string, string>();
  return { get: (k: string) => m.get(k) ?? null, set: (k: string, v: string) => void m.set(k, v), m };
};

describe('lines typed on the command line, kept in the browser', () => {
  it('keeps each person’s lines newest first, once each, at most 50, across a new store (a reload)', () => {
    const storage = memory();
    const ann = createTypedLines(storage, 'ann');
    ann.add('server.show web-01');
    ann.add('history.show --since 1h');
    expect(ann.add('server.show web-01')).toEqual(['server.show web-01', 'history.show --since 1h']);
    expect(createTypedLines(storage, 'ann').load()).toEqual(['server.show web-01', 'history.show --since 1h']);
    expect(createTypedLines(storage, 'bob').load()).toEqual([]);
    for (let i = 0; i < 60; i++) ann.add(`server.show web-${i}`);
    expect(ann.load()).toHaveLength(50);
    expect(ann.load()[0]).toBe('server.show web-59');
  });

  it('reads an unreadable store as empty', () => {
    const storage = memory();
    storage.set('opsdeck.lines.ann', '{nope');
    expect(createTypedLines(storage, 'ann').load()).toEqual([]);
    storage.set('opsdeck.lines.ann', JSON.stringify(['a', 5, 'b']));
    expect(createTypedLines(storage, 'ann').load()).toEqual(['a', 'b']);
  });

  it('knows a line that gives a secret, by the command’s arguments or by a flag’s name', () => {
    const registry = createAppRegistry();
    expect(givesSecret('user.create --username ann --email a@x --password hunter2', registry.get)).toBe(true);
    expect(givesSecret('user.show ann', registry.get)).toBe(false);
    expect(givesSecret('no.such-command --token abc', registry.get)).toBe(true);
    expect(givesSecret('no.such-command --name abc', registry.get)).toBe(false);
  });
});
