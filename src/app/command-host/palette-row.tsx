import { markedArg, markedNoun, type MarkedTargets } from '../../../commands/run-marked';
import { middleEllipsis } from '../../lib/format';
import { shortcutLabel } from './hotkeys';
import type { PaletteItem } from './palette-items';

/**
 * The row's first column: "Recent" for the empty palette's recents, "On screen" for the thing the
 * open screen is about (an argument's first choice), else what the item is.
 */
function Kind({ item, children }: { item: PaletteItem; children: string }) {
  const tag = item.recent ? 'Recent' : item.kind === 'entity' && item.context ? 'On screen' : null;
  return tag ? <span className="w-20 shrink-0 text-xs font-medium text-blue-700 dark:text-blue-300">{tag}</span> : <span className="w-20 shrink-0 text-xs text-slate-600 dark:text-slate-400">{children}</span>;
}

export function PaletteRow({ item, marked }: { item: PaletteItem; marked?: MarkedTargets }) {
  if (item.kind === 'alias') {
    return (
      <>
        <Kind item={item}>Alias</Kind>
        <span className="min-w-0 flex-1 truncate">
          <span className="font-mono">{item.label}</span>
          {item.allowed !== true && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">— {item.allowed}</span>}
        </span>
        <span className="truncate font-mono text-xs text-slate-500 dark:text-slate-400">{item.alias.line}</span>
      </>
    );
  }
  if (item.kind === 'command') {
    const onMarked = marked?.items.length && markedArg(item.def, marked.kind) ? markedNoun(marked.kind, marked.items.length) : undefined;
    // Its global key, or the keys a screen binds to it (with where, on hover), as the "?" overview lists them.
    const keys = item.def.shortcut ?? item.def.screenKeys?.keys;
    return (
      <>
        <Kind item={item}>{item.def.category}</Kind>
        <span className="min-w-0 flex-1 truncate">
          {item.label}
          {item.allowed !== true && <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">— {item.allowed}</span>}
          {item.allowed === true && onMarked && <span className="ml-2 text-xs text-blue-700 dark:text-blue-300">→ {onMarked} marked</span>}
        </span>
        {keys && (
          <kbd title={item.def.shortcut ? undefined : item.def.screenKeys?.where} className="rounded border border-slate-300 px-1.5 font-mono text-xs text-slate-500 dark:border-slate-600 dark:text-slate-400">
            {shortcutLabel(keys)}
          </kbd>
        )}
      </>
    );
  }
  if (item.kind === 'preset') {
    // A screen's control by its name, with the command it runs beside it (to learn the line).
    return (
      <>
        <Kind item={item}>{item.def.category}</Kind>
        <span className="min-w-0 flex-1 truncate">{item.label}</span>
        <span className="truncate text-xs text-slate-600 dark:text-slate-400">{item.def.title}</span>
      </>
    );
  }
  if (item.kind === 'entity') {
    const { host, kind, subtitle } = item.entity;
    // The host is shortened in its middle, never cut at its end: similar hosts stay told apart.
    const rest = host && item.label.endsWith(host) ? item.label.slice(0, item.label.length - host.length) : null;
    return (
      <>
        <Kind item={item}>{kind.charAt(0).toUpperCase() + kind.slice(1)}</Kind>
        {host && rest !== null ? (
          <span className="flex min-w-0 flex-1 items-baseline" title={item.label}>
            {rest && <span className="min-w-0 truncate whitespace-pre">{rest}</span>}
            <span className="shrink-0 whitespace-nowrap" data-host={host}>
              {middleEllipsis(host, rest ? 28 : 40)}
            </span>
          </span>
        ) : (
          <span className="min-w-0 flex-1 truncate">{item.label}</span>
        )}
        {subtitle && <span className="max-w-[40%] truncate text-xs text-slate-600 dark:text-slate-400">{subtitle}</span>}
      </>
    );
  }
  return <span className="flex-1">{item.label}</span>;
}
