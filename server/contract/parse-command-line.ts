import type { ArgShape, CommandShape } from './arg-spec';

/** Splits a command line into words, honouring "double" and 'single' quotes and \-escapes. */
export function tokenize(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let has = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (quote) {
      if (c === quote) quote = null;
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      has = true;
    } else if (/\s/.test(c)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
      has = true;
    }
  }
  if (quote) throw new Error(`Unclosed quote ${quote}`);
  if (has) out.push(cur);
  return out;
}

/** `read-only` → `readOnly`: the command line takes an argument's name in kebab case too (`--read-only`). */
const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The argument a `--name` (without its dashes) stands for: its declared name, or that name in kebab case. */
export function argNamed<A extends Pick<ArgShape, 'name'>>(args: readonly A[], name: string): A | undefined {
  return args.find((a) => a.name === name) ?? args.find((a) => a.name === camel(name));
}

export interface ParsedLine {
  id: string;
  input: Record<string, unknown>;
}

function convert(spec: ArgShape | undefined, raw: string): unknown {
  if (spec?.kind === 'number') {
    const n = Number(raw);
    return Number.isNaN(n) ? raw : n;
  }
  if (spec?.kind === 'boolean') return raw === 'true' || raw === 'yes' || raw === '1';
  return raw;
}

/**
 * `user.create --username ann --email ann@example.com`, `user.delete ann`: the first word is the
 * command id; `--name value` pairs and bare words (filled into positional args in order) make the
 * input, which the registry's gate then validates with the command's schema.
 */
export function parseCommandLine(line: string, find: (id: string) => CommandShape | undefined): ParsedLine {
  const words = tokenize(line.trim());
  const id = words.shift();
  if (!id) throw new Error('Type a command, e.g. user.create --username ann');
  const def = find(id);
  if (!def) throw new Error(`Unknown command "${id}". Press Tab to complete command names.`);
  const args = def.args ?? [];
  const positional = args.filter((a) => a.positional);
  const input: Record<string, unknown> = {};
  let p = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('--') && w.length > 2) {
      let name = w.slice(2);
      let value: string | undefined;
      const eqAt = name.indexOf('=');
      if (eqAt >= 0) [name, value] = [name.slice(0, eqAt), name.slice(eqAt + 1)];
      const spec = argNamed(args, name);
      if (!spec) throw new Error(`${id} has no argument --${name}${args.length ? ` (arguments: ${args.map((a) => `--${a.name}`).join(', ')})` : ''}`);
      if (value === undefined) {
        const next = words[i + 1];
        if (spec.kind === 'boolean' && (next === undefined || next.startsWith('--'))) value = 'true';
        else if (next === undefined) throw new Error(`--${name} needs a value`);
        else value = words[++i]!;
      }
      input[spec.name] = convert(spec, value);
    } else {
      const spec = positional[p++];
      if (!spec) throw new Error(`Unexpected "${w}": ${id} takes ${positional.length ? positional.map((a) => a.name).join(', ') : 'no'} positional argument${positional.length === 1 ? '' : 's'}`);
      input[spec.name] = convert(spec, w);
    }
  }
  return { id, input };
}
