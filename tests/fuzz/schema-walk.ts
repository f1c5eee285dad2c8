import type { z } from 'zod';

export interface SchemaNode {
  /** Dotted path from the exported schema: `createUserSchema.role`, `listQuerySchema.filter{value}|0`. */
  path: string;
  /** The object key this node sits under, if any. */
  key?: string;
  schema: z.ZodType;
  def: Record<string, any>;
}

const isSchema = (v: unknown): v is z.ZodType => !!v && typeof v === 'object' && '_zod' in v;

/** Visits every schema reachable from `schema` (objects, arrays, unions, tuples, records, pipes, wrappers). */
export function walkSchema(schema: z.ZodType, path: string, visit: (node: SchemaNode) => void, key?: string, seen = new Set<unknown>()): void {
  if (seen.has(schema)) return;
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  visit({ path, key, schema, def });
  const walk = (child: unknown, p: string, k = key) => isSchema(child) && walkSchema(child, p, visit, k, seen);
  switch (def.type) {
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, `${path}.${k}`, k);
      return;
    case 'array':
      return void walk(def.element, `${path}[]`);
    case 'union':
      return (def.options as unknown[]).forEach((o, i) => walk(o, `${path}|${i}`));
    case 'tuple':
      (def.items as unknown[]).forEach((o, i) => walk(o, `${path}[${i}]`));
      return void walk(def.rest, `${path}[...]`);
    case 'record':
      walk(def.keyType, `${path}{key}`);
      return void walk(def.valueType, `${path}{value}`);
    case 'pipe':
      walk(def.in, path);
      return void walk(def.out, path);
    case 'intersection':
      walk(def.left, path);
      return void walk(def.right, path);
    default:
      walk(def.innerType, path);
  }
}

/** The zod schemas a module exports, by export name. */
export function exportedSchemas(mod: Record<string, unknown>): [string, z.ZodType][] {
  return Object.entries(mod).filter((e): e is [string, z.ZodType] => isSchema(e[1]));
}
