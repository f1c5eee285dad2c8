import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentError } from './argument-error';
import { defineCommand } from './define-command';

const def = defineCommand({
  id: 'demo.pin',
  title: 'Pin',
  category: 'Demo',
  input: z
    .object({
      server: z.string().trim().min(1, 'server is required'),
      type: z.enum(['cpu', 'memory']),
      panel: z.union([z.number().int().positive(), z.string().trim().min(1)]),
      size: z.number().int().min(2).optional(),
      quiet: z.boolean().optional(),
      widgetRefresh: z.enum(['30s', '1m']).optional(),
    })
    .strict(),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server' },
    { name: 'type', label: 'Widget Type', kind: 'enum', options: [{ value: 'cpu', label: 'CPU Busy' }, { value: 'memory', label: 'Memory' }] },
    { name: 'panel', label: 'Widget', kind: 'text' },
    { name: 'size', label: 'Size', kind: 'number' },
    { name: 'quiet', label: 'Quiet', kind: 'boolean' },
  ],
  run: () => ({}),
});

const errorOf = (input: Record<string, unknown>, choices?: { value: string; label: string }[]) => {
  const r = def.input.safeParse(input);
  if (r.success) throw new Error('expected a refusal');
  return argumentError(def, r.error, input, choices);
};
const base = { server: 'web-01', type: 'cpu', panel: 3 };

describe('argumentError (issue 13: errors name the argument in words and list the choices)', () => {
  it('says which argument is missing by its label, with its choices when it has a list', () => {
    expect(errorOf({ ...base, server: '  ' })).toBe('Server is required.');
    expect(errorOf({ server: 'web-01', panel: 3 })).toBe('Widget Type is required. Choose one of: cpu (CPU Busy), memory.');
    expect(errorOf({ server: 'web-01', type: 'cpu' })).toBe('Widget is required.');
    expect(errorOf({ server: 'web-01', type: 'cpu' }, [{ value: '1', label: 'CPU Busy' }, { value: '2', label: 'Load' }])).toBe('Widget is required. Choose one of: 1 (CPU Busy), 2 (Load).');
  });

  it('names a wrong choice and lists the valid ones, from the args or the schema', () => {
    expect(errorOf({ ...base, type: 'disk' })).toBe('Widget Type: “disk” is not one of the choices. Choose one of: cpu (CPU Busy), memory.');
    expect(errorOf({ ...base, widgetRefresh: '5s' })).toBe('Widget refresh: “5s” is not one of the choices. Choose one of: 30s, 1m.');
    expect(errorOf({ ...base, quiet: 'maybe' })).toBe('Quiet: “maybe” is not one of the choices. Choose one of: true (yes), false (no).');
  });

  it('says what a value must be instead of the validator’s words', () => {
    expect(errorOf({ ...base, size: 'big' })).toBe('Size must be a number, not “big”.');
    expect(errorOf({ ...base, size: 1 })).toBe('Size must be at least 2.');
    expect(errorOf({ ...base, colour: 'red' })).toBe('demo.pin has no argument --colour.');
    expect(errorOf({ ...base, panel: -1 })).not.toMatch(/Invalid input/);
  });
});
