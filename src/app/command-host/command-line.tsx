import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { completeCommandLine } from '../../../commands/complete-command-line';
import type { CommandContext } from '../../../commands/define-command';
import { commandLineFor } from '../../../server/contract/format-command-line';
import { parseCommandLine } from '../../../server/contract/parse-command-line';
import { dispatchWithMarks } from '../../../commands/run-marked';
import { aliasOf, expandAlias, type AliasDef } from '../../../commands/aliases';
import type { Recents } from '../../lib/recents';
import { createTypedLines, givesSecret } from '../../lib/typed-lines';
import { localStore } from '../../lib/web-storage';
import { marks } from '../../components/ui/marks';
import { CommandError, type Registry } from '../../../commands/registry';
import type { Whoami } from '../../../server/contract/auth';
import type { CommandSource } from '../../../server/contract/command-history';
import { commandHistoryQueryOptions } from '../../api/command-history';
import { completionValues } from './entities';
import { CommandMarkdown } from '../../lib/markdown';
import { curlLines, printApi, splitPrintApi } from '../../../commands/print-api';
import { curlBlock } from './copy-api';

interface OutputLine {
  id: number;
  kind: 'input' | 'ok' | 'error' | 'info';
  text: string;
}

let nextId = 1;

/** Markdown inline code holding `text` whatever it holds (a backtick asks for a longer fence). */
const codeSpan = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/**
 * ":" — a terminal at the bottom of the screen. Lines are parsed with parseCommandLine and run
 * through the same gate as every other front door (source "cmdline"); results print as markdown.
 * ↑/↓ walk this person's earlier lines: those typed in this browser, then the shared server history.
 */
export function CommandLine({
  registry,
  contextFor,
  user,
  seed,
  aliases = [],
  recents,
  onClose,
}: {
  registry: Registry;
  contextFor: (source: CommandSource) => CommandContext;
  user: Whoami | null;
  seed: string;
  /** This person's aliases: `ack1h …` runs its line; Tab completes them like command ids. */
  aliases?: readonly AliasDef[];
  /** Where runs are counted for the palette's recents. */
  recents?: Recents;
  onClose: () => void;
}) {
  const [line, setLine] = useState(seed);
  const [output, setOutput] = useState<OutputLine[]>([{ id: 0, kind: 'info', text: 'Type a command (Tab completes, ↑/↓ history, Esc closes), e.g. `user.show ann`' }]);
  const [busy, setBusy] = useState(false);
  const [recall, setRecall] = useState(-1);
  const kept = useMemo(() => (user ? createTypedLines(localStore, user._id) : undefined), [user]);
  const [typedLines, setTypedLines] = useState<string[]>(() => kept?.load() ?? []);
  const inputRef = useRef<HTMLInputElement>(null);
  const outRef = useRef<HTMLDivElement>(null);
  const returnFocus = useRef<Element | null>(typeof document !== 'undefined' ? document.activeElement : null);

  const { data } = useQuery({
    ...commandHistoryQueryOptions({ pageNumber: 1, pageSize: 50, sort: { by: 'createdAt', direction: 'desc' }, filter: { userId: user?._id ?? '00000000-0000-4000-8000-000000000000' } }),
    enabled: !!user,
  });
  // Newest first: the lines typed in this browser (views and refusals are only there), then what
  // the server recorded of this person (the recorded line; older browser reports are spelled
  // from their input; bare API calls have none).
  const past = useMemo(() => {
    const fromServer = (data?.result.data ?? [])
      .filter((e) => e.commandLine || (e.origin === 'client' && !JSON.stringify(e.input ?? {}).includes('••••')))
      // By name, as History shows it (issue 24 §4): `alert.resolve high_cpu_usage@api-01`, never a UUID.
      .map((e) => e.displayLine ?? e.commandLine ?? commandLineFor(e.command, (e.input ?? {}) as Record<string, unknown>, registry.get(e.command)?.args));
    return [...new Set([...typedLines, ...fromServer])];
  }, [data, typedLines]);

  useEffect(() => {
    inputRef.current?.focus();
    const el = returnFocus.current;
    return () => {
      if (el instanceof HTMLElement) el.focus();
    };
  }, []);
  useEffect(() => {
    outRef.current?.scrollTo({ top: outRef.current.scrollHeight });
  }, [output]);

  const print = (kind: OutputLine['kind'], text: string) => setOutput((o) => [...o.slice(-200), { id: nextId++, kind, text }]);

  async function submit() {
    const text = line.trim();
    if (!text) return;
    print('input', text);
    // Kept in this browser unless it gives a secret; this tab remembers it either way.
    const stored = kept && !givesSecret(text, registry.get) ? kept.add(text) : undefined;
    setTypedLines((t) => [text, ...(stored ?? t).filter((x) => x !== text)]);
    setLine('');
    setRecall(-1);
    setBusy(true);
    try {
      const wanted = splitPrintApi(expandAlias(text, aliases));
      if (wanted.printApi) {
        // `--print-api`: the calls the line would make, as curl, instead of running it.
        const parsed = parseCommandLine(wanted.line, registry.get);
        const printed = await printApi(registry, parsed.id, parsed.input, contextFor('cmdline'));
        print('ok', printed.calls.length ? curlBlock(curlLines(printed, window.location.origin)) : `\`${parsed.id}\` changes nothing through the API here: there is no call to print.`);
        return;
      }
      const parsed = parseCommandLine(expandAlias(text, aliases), registry.get);
      // Without its target, a command that takes one of the marked kind runs on every marked row.
      const marked = marks.get();
      const result = await dispatchWithMarks(registry, parsed.id, parsed.input, marked.kind ? { kind: marked.kind, items: marked.items } : undefined, {
        source: 'cmdline',
        ctx: { ...contextFor('cmdline'), progress: (text) => print('info', text) },
      });
      if (result.marked) marks.unmark(result.marked.done);
      const alias = aliasOf(text, aliases);
      recents?.record(alias ? `alias:${alias.name}` : `cmd:${parsed.id}`);
      print('ok', result.message ?? 'Done.');
      if (result.undo) print('info', 'Undo it with `history.undo` (or Ctrl+Z outside this line).');
    } catch (err) {
      const cancelled = err instanceof CommandError && err.outcome === 'cancelled';
      print(cancelled ? 'info' : 'error', cancelled ? 'Cancelled.' : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
      inputRef.current?.focus();
    }
  }

  async function complete() {
    const ctx = contextFor('cmdline');
    const visible = registry.list().filter((d) => registry.shown(d.id, ctx));
    const result = await completeCommandLine(line, visible, (arg, prefix) => completionValues(ctx.api, user?.role, arg, prefix), aliases);
    setLine(result.line);
    // As code: a name like service_down@db-01 would read as markdown (emphasis, an email link).
    if (result.candidates.length > 1) print('info', result.candidates.slice(0, 40).map(codeSpan).join('  '));
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Tab') {
      e.preventDefault();
      void complete();
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      const next = Math.max(-1, Math.min(past.length - 1, recall + (e.key === 'ArrowUp' ? 1 : -1)));
      setRecall(next);
      setLine(next < 0 ? '' : past[next]!);
    }
  }

  return (
    <div role="dialog" aria-label="Command line" className="fixed inset-x-0 bottom-0 z-50 border-t border-slate-300 bg-slate-950 font-mono text-sm text-slate-100 shadow-2xl dark:border-slate-700">
      <div ref={outRef} className="max-h-[35vh] overflow-y-auto px-4 pt-2" aria-live="polite">
        {output.map((o) => (
          <div key={o.id} className={o.kind === 'error' ? 'text-red-400' : o.kind === 'input' ? 'text-slate-400' : o.kind === 'info' ? 'text-slate-400' : 'text-emerald-300'}>
            {o.kind === 'input' ? (
              <span>
                <span aria-hidden>› </span>
                {o.text}
              </span>
            ) : (
              <div className="[&_a]:underline [&_code]:break-all [&_code]:bg-slate-800 [&_code]:text-amber-300 [&_p]:my-0.5">
                <CommandMarkdown>{o.text}</CommandMarkdown>
              </div>
            )}
          </div>
        ))}
      </div>
      <div className="flex items-center gap-2 px-4 py-2">
        <span aria-hidden className="text-blue-400">
          :
        </span>
        <input
          ref={inputRef}
          aria-label="Command line"
          spellCheck={false}
          autoComplete="off"
          value={line}
          onChange={(e) => {
            setLine(e.target.value);
            setRecall(-1);
          }}
          onKeyDown={onKeyDown}
          className="flex-1 bg-transparent outline-none placeholder:text-slate-500"
          placeholder={busy ? 'Running…' : 'user.create --username ann --email ann@example.com --role sysadmin'}
        />
      </div>
    </div>
  );
}
