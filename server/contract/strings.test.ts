import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { exportedSchemas, walkSchema } from '../../tests/fuzz/schema-walk';
import { NUL_MESSAGE } from './common';

/** Every string schema reachable from an exported schema of the contract, with its path. */
function strings(schema: z.ZodType, path: string): { path: string; schema: z.ZodType }[] {
  const found: { path: string; schema: z.ZodType }[] = [];
  walkSchema(schema, path, (node) => node.def.type === 'string' && found.push({ path: node.path, schema: node.schema }));
  return found;
}

const modules = Object.entries(import.meta.glob<Record<string, unknown>>(['./*.ts', '!./*.test.ts']));

describe('contract strings', () => {
  it.each(modules)('%s: every string refuses NUL with the shared refinement', async (_file, load) => {
    const mod = await load();
    const missing: string[] = [];
    for (const [name, value] of exportedSchemas(mod)) {
      for (const { path, schema } of strings(value, name)) {
        const result = schema.safeParse('1.2.3.4\u0000');
        // Formats (IP addresses, uuids) refuse NUL by their own pattern.
        const refused = !result.success && result.error.issues.some((i) => i.message === NUL_MESSAGE || i.code === 'invalid_format');
        if (!refused) missing.push(path);
      }
    }
    expect(missing, 'string schemas made with z.string() instead of str() from contract/common.ts').toEqual([]);
  });

  it('the check can fail: a bare z.string() is reported', async () => {
    const { z } = await import('zod');
    expect(strings(z.object({ a: z.string().optional() }), 'x').map((s) => s.schema.safeParse('\u0000').success)).toEqual([true]);
  });
});
