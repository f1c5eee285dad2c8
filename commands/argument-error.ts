import type { z } from 'zod';
import type { AnyCommand, ArgSpec } from './define-command';

type Choice = { value: string; label: string };

/** "Widget type" for `widgetType` when a command does not label the argument. */
function words(name: string): string {
  const spaced = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** `linux (Linux)`, or just `30s` when the value is its own label. */
const choiceText = (c: Choice) => (c.label.toLowerCase() === c.value.toLowerCase() ? c.value : `${c.value} (${c.label})`);

export function choiceList(choices: readonly Choice[]): string {
  return choices.map(choiceText).join(', ');
}

/** The choices an argument takes, when it has a fixed list: its options, yes/no, or the schema's enum values. */
function fixedChoices(arg: ArgSpec | undefined, issue: z.core.$ZodIssue): Choice[] | undefined {
  if (arg?.options?.length) return [...arg.options];
  if (arg?.kind === 'boolean') return [{ value: 'true', label: 'yes' }, { value: 'false', label: 'no' }];
  const values = (issue as { values?: unknown[] }).values;
  if (issue.code === 'invalid_value' && values?.length && values.every((v) => typeof v === 'string')) return values.map((v) => ({ value: v as string, label: v as string }));
  return undefined;
}

/** zod's own wording ("Invalid input: expected number, received string"), as opposed to a command's message. */
const GENERIC = /^(Invalid|Too (small|big)|Expected|Unrecognized)/;

const quoted = (v: unknown) => (typeof v === 'string' ? `“${v}”` : JSON.stringify(v));

/**
 * A refused input in words a person reads (issue 13: "panel: Invalid input" read like validator
 * output): the argument by its label, what was wrong, and the valid choices when there is a list
 * of them. `choices` adds a list the command computes (widget.pin's widgets for that server).
 */
export function argumentError(def: AnyCommand, error: z.ZodError, rawInput: unknown, choices?: readonly Choice[]): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid input';
  if (issue.code === 'unrecognized_keys') return `${def.id} has no argument ${(issue as { keys?: string[] }).keys?.map((k) => `--${k}`).join(', ')}.`;
  const name = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
  if (!name) return GENERIC.test(issue.message) ? 'The input is not an object of arguments' : issue.message;
  const arg = def.args?.find((a) => a.name === name);
  const label = arg?.label ?? words(name);
  const given = rawInput && typeof rawInput === 'object' ? (rawInput as Record<string, unknown>)[name] : undefined;
  const missing = given === undefined || given === null || (typeof given === 'string' && given.trim() === '');
  const list = choices?.length ? [...choices] : fixedChoices(arg, issue);
  const choose = list ? ` Choose one of: ${choiceList(list)}.` : '';

  if (!GENERIC.test(issue.message)) {
    // The command's own message: name the argument in words when the message names it by key.
    const message = issue.message.startsWith(`${label} `) ? issue.message : issue.message.startsWith(`${name} `) ? `${label}${issue.message.slice(name.length)}` : `${label}: ${issue.message}`;
    return `${message}${/[.!?]$/.test(message) ? '' : '.'}${missing || issue.code === 'invalid_value' ? choose : ''}`;
  }
  if (missing) return `${label} is required.${choose}`;
  if (list) return `${label}: ${quoted(given)} is not one of the choices.${choose}`;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = (issue as { expected?: string }).expected;
      const want = expected === 'number' ? 'a number' : expected === 'boolean' ? 'yes or no' : expected === 'array' ? 'a list' : expected === 'string' ? 'text' : expected;
      return `${label} must be ${want}, not ${quoted(given)}.`;
    }
    case 'too_small': {
      const min = (issue as { minimum?: number | bigint }).minimum;
      const origin = (issue as { origin?: string }).origin;
      return origin === 'number' ? `${label} must be at least ${min}.` : origin === 'array' ? `${label} needs at least ${min}.` : `${label} must be at least ${min} characters long.`;
    }
    case 'too_big': {
      const max = (issue as { maximum?: number | bigint }).maximum;
      const origin = (issue as { origin?: string }).origin;
      return origin === 'number' ? `${label} must be at most ${max}.` : origin === 'array' ? `${label} takes at most ${max}.` : `${label} must be at most ${max} characters long.`;
    }
    case 'invalid_format':
      return `${label}: ${quoted(given)} is not a valid ${(issue as { format?: string }).format ?? 'value'}.`;
    default:
      return `${label}: ${quoted(given)} is not valid.`;
  }
}
