import { useRef, useState, type FormEvent } from 'react';
import type { CommandId, CommandInput } from '../../../commands';
import { deepEqual } from '../../../commands/deep-equal';
import type { z } from 'zod';
import { argumentError } from '../../../commands/argument-error';
import type { CommandResult } from '../../../commands/define-command';
import { useCommandRunner } from './run-command';

/** A schema issue as a form may word it. */
export interface SchemaIssue {
  code: string;
  /** The schema's own message ("ipaddress must be an IPv4 or IPv6 address"). */
  message: string;
  /** What the input held at the issue's path. */
  value: unknown;
}

/** Messages beside the form's fields, by field name (composite names such as "0.1.ref" allowed). */
export type FieldErrors<F extends string = string> = Partial<Record<F, string>>;

export interface CommandFormOptions<K extends CommandId, V, F extends string> {
  /** What the form opens with; null while the record loads (the form fills in when it arrives). */
  initial: V | null;
  /** The form's values as the command's input, without the `fixed` keys; `command` is the one about to run. */
  toInput: (values: V, command: K) => Record<string, unknown>;
  /** Input always sent whatever changed: the record an edit is about (`{ server: id }`). */
  fixed?: Record<string, unknown>;
  /**
   * `changed` (edits): only the input keys whose value differs from what `initial` gives, so an
   * unchanged field never trips a server check (an IP "already taken" by this very server).
   * Nothing changed: nothing runs and `onDone` gets null. Default `all`.
   */
  send?: 'all' | 'changed';
  /** The form's own checks (cross-field rules, wording of its own): run before the command's schema, which fills only the fields left without a message. */
  validate?: (values: V) => FieldErrors<F>;
  /** An input key or the API's field name (from a 400 or 409) as the form's field; undefined: the message goes above the buttons. Default: the name itself. */
  field?: (name: string) => F | undefined;
  /**
   * The text shown beside `field`: `text` is the refusal's message, or for a schema issue the
   * gate's wording of it ("URL is required."); `issue` holds the schema's own message, for forms
   * that word it their way (the API names fields as "ipaddress", the label says "IP address").
   */
  message?: (field: F, text: string, issue?: SchemaIssue) => string;
  /** After a successful run (`null`: nothing changed, nothing ran). Throwing shows its message like a refusal. */
  onDone: (result: CommandResult | null, input: CommandInput<K>, values: V) => void | Promise<void>;
  /**
   * `runner`: the run reports its own failure (a notice, as the palette's runs do), for a form
   * with no place for one (a small modal); the form then stays open as it was. Default `form`.
   */
  reports?: 'form' | 'runner';
  /** The text above the buttons for a failure that names no field (default: its message). */
  failure?: (error: unknown) => string;
  /** A failure that is shown neither beside a field nor above the buttons (a declined confirmation is silent already). */
  quiet?: (error: unknown) => boolean;
  /** After a failed run, with the text the form shows for it: for a screen that also announces it (SPEC §8's error notification). */
  onFailure?: (text: string, error: unknown) => void;
}

/** What a form settles just before it submits (an address typed but not yet added to its list). */
export interface SubmitOverride<V, F extends string, K extends CommandId = CommandId> {
  values?: V;
  /** Messages the form found itself, shown with the rest; any stops the run. */
  errors?: FieldErrors<F>;
  /** Another command of the form's than the one it is bound to (Release beside Acknowledge). */
  command?: K;
}

export interface CommandForm<V, F extends string, K extends CommandId = CommandId> {
  /** null while the record loads. */
  values: V | null;
  /** Sets one field and clears its message. */
  set: <Key extends keyof V>(key: Key, value: V[Key]) => void;
  /** Changes several values at once (rows of a list); clears no message. */
  update: (fn: (values: V) => V) => void;
  errors: FieldErrors<F>;
  setErrors: (fn: (errors: FieldErrors<F>) => FieldErrors<F>) => void;
  /** A refusal that names no field, for the alert above the buttons. */
  formError: string | null;
  busy: boolean;
  /** The run succeeded: the form is about to close, so it holds no unsaved changes. */
  done: boolean;
  /** Values differ from `initial` and the run has not succeeded (for useUnsavedChanges). */
  dirty: boolean;
  /** The form's onSubmit: validates, runs the command through the gate (so it is in History), maps failures to fields. */
  submit: (event?: FormEvent, override?: SubmitOverride<V, F, K>) => Promise<void>;
  /** Back to `initial` with no messages (a modal opened again). */
  reset: (values?: V) => void;
}

/** The field a thrown error names: the field errors of commands (ServerFieldError…) and ApiError carry `field`. */
function errorField(err: unknown): string | undefined {
  if (!err || typeof err !== 'object' || !('field' in err)) return undefined;
  const field = (err as { field?: unknown }).field;
  return typeof field === 'string' && field ? field : undefined;
}

/** Only the keys of `next` whose value differs from `before` (absent ones are never sent). */
export function changedInput(next: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) if (v !== undefined && !deepEqual(v, before[k])) out[k] = v;
  return out;
}

/**
 * One form bound to one command: holds values, messages, busy and done; validates with the
 * command's own input schema (the same the gate and the command line use), runs through the
 * runner's `runOrThrow` so the submission is a recorded run, and puts the schema's issues and
 * the server's `{ field, message }` beside the inputs they name.
 */
export function useCommandForm<K extends CommandId, V, F extends string = Extract<keyof V, string>>(
  commandId: K,
  options: CommandFormOptions<K, V, F>,
): CommandForm<V, F, K> {
  const runner = useCommandRunner();
  const [values, setValues] = useState<V | null>(options.initial);
  // The record arrives after the form opened: fill it then, in the same drawer (a new drawer per
  // load closed and reopened it, which a person sees as a flicker).
  if (values === null && options.initial !== null) setValues(options.initial);
  const [errors, setErrorsState] = useState<FieldErrors<F>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // A second Enter while the first run is on its way must not run twice.
  const running = useRef(false);
  const opts = options;

  const fieldOf = (name: string): F | undefined => (opts.field ? opts.field(name) : (name as F));
  const text = (field: F, message: string, issue?: SchemaIssue) => (opts.message ? opts.message(field, message, issue) : message);

  const submit = async (event?: FormEvent, override?: SubmitOverride<V, F, K>) => {
    event?.preventDefault();
    const current = override?.values ?? values;
    const command = override?.command ?? commandId;
    if (!current || running.current) return;
    const found: FieldErrors<F> = { ...opts.validate?.(current) };
    for (const [k, m] of Object.entries(override?.errors ?? {})) if (m && !found[k as F]) found[k as F] = m as string;
    let input: Record<string, unknown>;
    try {
      input = { ...opts.fixed, ...opts.toInput(current, command) };
    } catch (err) {
      // A value the form cannot turn into input (a time in an unknown zone): said above the buttons.
      setErrorsState(found);
      setFormError(Object.values(found).some(Boolean) ? null : err instanceof Error ? err.message : String(err));
      return;
    }
    const def = runner.get(command);
    const parsed = def?.input.safeParse(input);
    if (def && parsed && !parsed.success) {
      for (const issue of (parsed.error as z.ZodError).issues) {
        const field = fieldOf(issue.path.join('.')) ?? fieldOf(String(issue.path[0] ?? ''));
        if (!field || found[field]) continue;
        const value = issue.path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), input);
        found[field] = text(field, argumentError(def, { issues: [issue] } as z.ZodError, input), { code: issue.code, message: issue.message, value });
      }
    }
    const failed = Object.values(found).some(Boolean);
    setErrorsState(found);
    setFormError(null);
    // A schema issue on a key the form does not show still blocks: the gate would refuse it.
    if (failed) return;
    // What is sent is the schema's output (trimmed, durations as seconds) for the keys the form
    // gave, so the recorded line reads clean; the gate parses it again to the same values.
    const output = parsed?.success ? (parsed.data as Record<string, unknown>) : input;
    const given = (from: Record<string, unknown>, raw: Record<string, unknown>) =>
      Object.fromEntries(Object.keys(raw).filter((k) => raw[k] !== undefined).map((k) => [k, from[k]]));
    let send = given(output, input);
    if (opts.send === 'changed' && opts.initial) {
      const rawBefore = { ...opts.fixed, ...opts.toInput(opts.initial, command) };
      const before = def?.input.safeParse(rawBefore);
      const changes = changedInput(given(output, opts.toInput(current, command)), before?.success ? (before.data as Record<string, unknown>) : rawBefore);
      send = Object.keys(changes).length ? { ...given(output, { ...opts.fixed }), ...changes } : {};
    }
    running.current = true;
    setBusy(true);
    try {
      if (opts.reports === 'runner' && !(opts.send === 'changed' && !Object.keys(send).length)) {
        const reported = await runner.run(command, send as CommandInput<K>);
        if (!reported) return;
        setDone(true);
        await opts.onDone(reported, send as CommandInput<K>, current);
        return;
      }
      const result = opts.send === 'changed' && !Object.keys(send).length ? null : await runner.runOrThrow(command, send as CommandInput<K>);
      // Done before onDone, so a form that stays open and resets itself there is not left done.
      setDone(true);
      await opts.onDone(result, (result ? send : input) as CommandInput<K>, current);
    } catch (err) {
      setDone(false);
      if (opts.quiet?.(err) || (err instanceof Error && err.name === 'CommandError' && (err as { outcome?: string }).outcome === 'cancelled')) return;
      const message = err instanceof Error ? err.message : String(err);
      const name = errorField(err);
      const field = name ? fieldOf(name) : undefined;
      // The server prefixes a 400 with the field ("hostname: …"); beside the input that is noise.
      const shown = field ? text(field, name && message.startsWith(`${name}: `) ? message.slice(name.length + 2) : message) : opts.failure ? opts.failure(err) : message;
      if (field) setErrorsState({ [field]: shown } as FieldErrors<F>);
      else setFormError(shown);
      opts.onFailure?.(shown, err);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };

  const dirty = !done && values !== null && opts.initial !== null && !deepEqual(values, opts.initial);

  return {
    values,
    set: (key, value) => {
      setValues((prev) => (prev ? { ...prev, [key]: value } : prev));
      setErrorsState((prev) => (prev[key as unknown as F] === undefined ? prev : { ...prev, [key]: undefined }));
    },
    update: (fn) => setValues((prev) => (prev ? fn(prev) : prev)),
    errors,
    setErrors: (fn) => setErrorsState(fn),
    formError,
    busy,
    done,
    dirty,
    submit,
    reset: (next) => {
      setValues(next ?? opts.initial);
      setErrorsState({});
      setFormError(null);
      setDone(false);
    },
  };
}
