import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { FinalSchedule } from '../../../server/contract/oncall';
import { useCommandRunner } from '../../app/command-host/run-command';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';
import { openPanel } from '../../lib/shell-events';
import { columnOf, moveFrom, rangeText, rowsOf, slotLabel, slotsOf, whoInSlot, type Slot } from './timeline-slots';

/** One colour per person, in the order they first appear; gaps are red, overrides ringed. */
const COLOURS = ['bg-blue-300 dark:bg-blue-800', 'bg-emerald-300 dark:bg-emerald-800', 'bg-violet-300 dark:bg-violet-800', 'bg-cyan-300 dark:bg-cyan-800', 'bg-lime-300 dark:bg-lime-800', 'bg-pink-300 dark:bg-pink-800'];
const GAP = 'bg-red-300 dark:bg-red-800';

interface Drag {
  anchor: number;
  moved: boolean;
}

/**
 * The final schedule of the next two weeks as a grid of hours (issue 27 §1), one row per day:
 * the ARIA grid pattern with one focusable hour at a time. Arrow keys move along time (an hour,
 * a day), Home/End to a day's ends, Ctrl+Home/End to the range's; each hour announces who is on
 * call then. A range — Shift+arrows, or Space then arrows, or a drag — opens `oncall.override`
 * in the palette with the schedule and the range given, asking who covers it.
 */
export function ScheduleTimeline({ final, scheduleId }: { final: FinalSchedule; scheduleId: string }) {
  const runner = useCommandRunner();
  const allowed = runner.check('oncall.override');
  const slots = useMemo(() => slotsOf(final), [final]);
  const rows = useMemo(() => rowsOf(slots), [slots]);
  const people = useMemo(() => [...new Set(slots.flatMap((s) => s.parts.map((p) => p.person)).filter((p): p is string => !!p))], [slots]);
  const colourOf = (person: string | null) => (person === null ? GAP : COLOURS[people.indexOf(person) % COLOURS.length]!);

  const [focus, setFocus] = useState(0);
  const [anchor, setAnchor] = useState<number | null>(null);
  /** Started with Space: plain arrows extend the range until Enter, Space or Escape. */
  const [sticky, setSticky] = useState(false);
  const [notice, setNotice] = useState('');
  const grid = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const at = Math.min(focus, slots.length - 1);

  // The focused hour follows the keys: move the browser's focus with it while the grid has it.
  useEffect(() => {
    const el = grid.current;
    if (!el || !el.contains(document.activeElement)) return;
    el.querySelector<HTMLElement>(`[data-slot="${at}"]`)?.focus();
  }, [at]);

  if (!slots.length) return null;
  const lo = anchor === null ? at : Math.min(anchor, at);
  const hi = anchor === null ? at : Math.max(anchor, at);
  const selected = (s: Slot) => anchor !== null && s.index >= lo && s.index <= hi;
  const range = { start: slots[lo]!.start, end: slots[hi]!.end };

  const clear = () => {
    setAnchor(null);
    setSticky(false);
  };
  const override = (start: number, end: number) => {
    if (allowed !== true) {
      setNotice(allowed);
      return;
    }
    clear();
    setNotice('');
    openPanel('palette', {
      palette: { command: 'oncall.override', values: { schedule: scheduleId, from: new Date(start).toISOString(), to: new Date(end).toISOString() }, note: rangeText(start, end) },
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      override(range.start, range.end);
      return;
    }
    if (e.key === ' ' && allowed === true) {
      e.preventDefault();
      if (sticky) clear();
      else {
        setAnchor(at);
        setSticky(true);
      }
      return;
    }
    if (e.key === 'Escape' && anchor !== null) {
      e.preventDefault();
      e.stopPropagation();
      clear();
      return;
    }
    const next = moveFrom(rows, slots, at, e.key, e.ctrlKey || e.metaKey);
    if (next === null) return;
    e.preventDefault();
    if ((e.shiftKey || sticky) && allowed === true) setAnchor((a) => a ?? at);
    else setAnchor(null);
    setFocus(next);
  };

  const slotAt = (x: number, y: number): number | null => {
    const el = document.elementFromPoint(x, y)?.closest<HTMLElement>('[data-slot]');
    return el && grid.current?.contains(el) ? Number(el.dataset.slot) : null;
  };
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const index = slotAt(e.clientX, e.clientY);
    if (index === null) return;
    e.preventDefault();
    grid.current?.querySelector<HTMLElement>(`[data-slot="${index}"]`)?.focus();
    setFocus(index);
    setSticky(false);
    setAnchor(allowed === true ? index : null);
    drag.current = allowed === true ? { anchor: index, moved: false } : null;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    if (e.buttons === 0) {
      // Released outside the grid: that drag is over, and chose nothing.
      drag.current = null;
      return;
    }
    const index = slotAt(e.clientX, e.clientY);
    if (index === null || index === at) return;
    drag.current.moved = true;
    setFocus(index);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (!d) return;
    const index = slotAt(e.clientX, e.clientY) ?? at;
    if (!d.moved && index === d.anchor) {
      // A click: that hour is chosen; Enter or the button makes the override.
      setAnchor(null);
      return;
    }
    const [a, b] = [Math.min(d.anchor, index), Math.max(d.anchor, index)];
    override(slots[a]!.start, slots[b]!.end);
  };

  const selection = anchor !== null ? `Selected ${rangeText(range.start, range.end)} (${hi - lo + 1} hour${hi === lo ? '' : 's'}). Press Enter to make an override.` : '';

  return (
    <div className="space-y-2">
      <p id="oncall-timeline-help" className="text-xs text-slate-600 dark:text-slate-400">
        Arrow keys move by an hour and a day, Home and End to a day’s first and last hour. {allowed === true ? 'Shift+arrows, or Space then arrows, select hours, or drag across them; Enter (or Override) makes an override of them.' : ''}
      </p>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="mr-auto tabular-nums" data-testid="timeline-focus">
          {anchor !== null ? `${rangeText(range.start, range.end)} selected` : slotLabel(slots[at]!)}
        </span>
        <Button size="sm" disabledReason={allowed !== true && allowed} onPress={() => override(range.start, range.end)} aria-label={`Override ${anchor !== null ? 'selected hours' : 'this hour'}: ${rangeText(range.start, range.end)}`}>
          Override {anchor !== null ? 'selected hours' : 'this hour'}
        </Button>
      </div>
      <div aria-hidden className="grid grid-cols-[3rem_repeat(24,minmax(0,1fr))] text-[10px] text-slate-500 sm:grid-cols-[6rem_repeat(24,minmax(0,1fr))] dark:text-slate-400">
        <span />
        {Array.from({ length: 24 }, (_, h) => (
          <span key={h} className={h % 6 === 0 ? '' : h % 3 === 0 ? 'hidden sm:inline' : 'invisible'}>
            {String(h).padStart(2, '0')}
          </span>
        ))}
      </div>
      <div
        ref={grid}
        role="grid"
        aria-label="On-call timeline, next two weeks"
        aria-describedby="oncall-timeline-help"
        aria-multiselectable={allowed === true || undefined}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        className="space-y-0.5 select-none"
      >
        {rows.map((row) => (
          <div key={row.slots[0]!.start} role="row" className="grid grid-cols-[3rem_repeat(24,minmax(0,1fr))] gap-px sm:grid-cols-[6rem_repeat(24,minmax(0,1fr))]">
            <div role="rowheader" aria-label={row.label} className="truncate pr-1 text-xs leading-6 text-slate-600 dark:text-slate-400">
              <span className="sm:hidden">{row.short}</span>
              <span className="hidden sm:inline">{row.label}</span>
            </div>
            {row.slots.map((s) => {
              const first = s.parts[0];
              return (
                <div
                  key={s.index}
                  role="gridcell"
                  data-slot={s.index}
                  data-start={new Date(s.start).toISOString()}
                  data-end={new Date(s.end).toISOString()}
                  tabIndex={s.index === at ? 0 : -1}
                  aria-label={slotLabel(s)}
                  aria-selected={allowed === true ? selected(s) : undefined}
                  title={`${rangeText(s.start, s.end)}: ${whoInSlot(s)}`}
                  onFocus={() => s.index !== at && setFocus(s.index)}
                  style={{ gridColumnStart: columnOf(row, s) + 2 }}
                  className={cx(
                    'h-6 touch-pan-y outline-none focus-visible:z-10 focus-visible:ring-2 focus-visible:ring-slate-900 dark:focus-visible:ring-white',
                    colourOf(first ? first.person : null),
                    first?.override && 'ring-2 ring-amber-500 ring-inset',
                    selected(s) && 'opacity-100 outline-2 -outline-offset-2 outline-slate-900 brightness-75 dark:outline-white',
                    s.index === at && 'z-10 ring-2 ring-slate-900 dark:ring-white',
                  )}
                />
              );
            })}
          </div>
        ))}
      </div>
      <ul aria-label="Timeline legend" className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600 dark:text-slate-400">
        {people.map((p) => (
          <li key={p} className="flex items-center gap-1">
            <span aria-hidden className={cx('inline-block h-3 w-3 rounded-sm', colourOf(p))} />
            {p}
          </li>
        ))}
        <li className="flex items-center gap-1">
          <span aria-hidden className={cx('inline-block h-3 w-3 rounded-sm', GAP)} />
          nobody
        </li>
        <li className="flex items-center gap-1">
          <span aria-hidden className="inline-block h-3 w-3 rounded-sm ring-2 ring-amber-500 ring-inset" />
          override
        </li>
      </ul>
      <p role="status" className="sr-only">
        {notice || selection}
      </p>
    </div>
  );
}
