import { useQuery } from '@tanstack/react-query';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { useEffect, useState } from 'react';
import type { Matcher } from '../../../server/contract/routing';
import { api } from '../../api/client';
import { windowPreviewQueryOptions, windowQueryOptions } from '../../api/maintenance-windows';
import { getServer, serverChoicesQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { ComboBox } from '../../components/ui/combo-box';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { inputClass, TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { completeMatchers, MatchersEditor } from './matchers-editor';
import { MatchPreview } from './match-preview';
import { Icon } from '../../components/ui/icons';

const lengths = [
  { value: '1800', label: '30 minutes' },
  { value: '3600', label: '1 hour' },
  { value: '7200', label: '2 hours' },
  { value: '14400', label: '4 hours' },
  { value: '28800', label: '8 hours' },
  { value: '86400', label: '1 day' },
] as const;
type Repeat = 'once' | 'daily' | 'weekly' | 'monthly' | 'custom';
const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const WALL = "yyyy-MM-dd'T'HH:mm";
interface Values {
  name: string;
  matchers: Matcher[];
  tz: string;
  start: string;
  length: string;
  repeat: Repeat;
  custom: string;
  comment: string;
}

/** The RRULE for a choice, from the start's wall-clock day in the window's zone. */
function ruleFor(repeat: Repeat, startWall: string, custom: string): string | null {
  if (repeat === 'once') return null;
  if (repeat === 'custom') return custom.trim() || null;
  if (repeat === 'daily') return 'FREQ=DAILY';
  const d = new Date(`${startWall.slice(0, 10)}T00:00:00Z`);
  if (repeat === 'weekly') return `FREQ=WEEKLY;BYDAY=${DAYS[d.getUTCDay()]}`;
  // "every 3rd Tuesday": the weekday and its ordinal in the month.
  return `FREQ=MONTHLY;BYDAY=+${Math.ceil(d.getUTCDate() / 7)}${DAYS[d.getUTCDay()]}`;
}
const repeatOf = (rrule: string | null): Repeat => (!rrule ? 'once' : rrule === 'FREQ=DAILY' ? 'daily' : /^FREQ=WEEKLY;BYDAY=[A-Z]{2}$/.test(rrule) ? 'weekly' : /^FREQ=MONTHLY;BYDAY=\+\d[A-Z]{2}$/.test(rrule) ? 'monthly' : 'custom');

/**
 * New or edit maintenance window: servers (searched by hostname) and/or matchers, the first
 * occurrence typed in the window's time zone, how long, how it repeats, and before saving what it
 * covers now. Saving runs `maintenance.create` / `maintenance.edit`.
 */
export function WindowDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const existing = useQuery({ ...windowQueryOptions(id ?? ''), enabled: id !== null });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [blank] = useState<Values>(() => ({ name: '', matchers: [], tz: zone, start: formatInTimeZone(new Date(Date.now() + 3_600_000), zone, "yyyy-MM-dd'T'HH:00"), length: '7200', repeat: 'once', custom: '', comment: '' }));
  const w = existing.data?.result;
  // The chosen servers by hostname: an edit's are looked up after the window arrives.
  const [servers, setServers] = useState<{ id: string; hostname: string }[]>([]);
  const [search, setSearch] = useState('');
  const options = useQuery(serverChoicesQueryOptions({ pageNumber: 1, pageSize: 20, search: search || undefined, sort: { by: 'hostname', direction: 'asc' } }));

  useEffect(() => {
    if (!w) return;
    void Promise.all(w.serverIds.map((sid) => getServer(api, sid).then((r) => ({ id: sid, hostname: r.result.hostname })).catch(() => ({ id: sid, hostname: sid })))).then(setServers);
  }, [w]);

  const form = useCommandForm<'maintenance.create' | 'maintenance.edit', Values, 'name'>(id === null ? 'maintenance.create' : 'maintenance.edit', {
    // An edit fills in when the window arrives; one that cannot be loaded opens as a new one would.
    initial: w
      ? {
          name: w.name,
          matchers: w.matchers,
          tz: w.timezone,
          start: formatInTimeZone(new Date(w.startsAt), w.timezone, WALL),
          length: String((Date.parse(w.endsAt) - Date.parse(w.startsAt)) / 1000),
          repeat: repeatOf(w.rrule),
          custom: w.rrule ?? '',
          comment: w.comment,
        }
      : id === null || existing.isError
        ? blank
        : null,
    toInput: (v) => {
      const startsAt = fromZonedTime(v.start, v.tz).toISOString();
      return {
        name: v.name,
        servers: servers.map((s) => s.id),
        matchers: completeMatchers(v.matchers),
        start: startsAt,
        end: new Date(Date.parse(startsAt) + Number(v.length) * 1000).toISOString(),
        tz: v.tz,
        rrule: ruleFor(v.repeat, v.start, v.custom) ?? '',
        comment: v.comment,
      };
    },
    ...(id === null ? {} : { fixed: { window: id } }),
    validate: (v) => (v.name.trim() ? {} : { name: 'Name the window' }),
    // The API's refusals are said above the buttons, as the command words them.
    field: (name) => (name === 'name' ? name : undefined),
    onDone: (r) => {
      toast('success', (r?.message ?? 'Saved').replace(/\*\*/g, ''));
      onClose();
    },
  });
  const { name, matchers, tz, start, length, repeat, custom, comment } = form.values ?? blank;
  const { errors, busy, submit } = form;
  const set = form.set;

  const ready = completeMatchers(matchers);
  const lengthOptions = lengths.some((l) => l.value === length) ? lengths : [...lengths, { value: length, label: `${Number(length) / 60} minutes` }];

  return (
    <FormDrawer title={id === null ? 'New maintenance window' : 'Edit maintenance window'} formId="window-form" mode={id === null ? 'create' : 'edit'} busy={busy} loading={id !== null && existing.isPending} onClose={onClose}>
      <form id="window-form" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <TextField label="Name" isRequired value={name} onChange={(v) => set('name', v)} errorMessage={errors.name} placeholder="e.g. Sunday patching" />
        <div className="flex flex-col gap-2">
          <ComboBox
            label="Servers"
            placeholder="Search by hostname"
            inputValue={search}
            onInputChange={setSearch}
            items={(options.data?.result.data ?? []).filter((s) => !servers.some((x) => x.id === s._id)).map((s) => ({ id: s._id, label: s.hostname, description: s.ipaddress }))}
            onSelect={(sid) => {
              const s = options.data?.result.data.find((x) => x._id === sid);
              if (s) setServers((list) => [...list, { id: s._id, hostname: s.hostname }]);
              setSearch('');
            }}
          />
          {servers.length > 0 && (
            <ul aria-label="Chosen servers" className="flex flex-wrap gap-1">
              {servers.map((s) => (
                <li key={s.id} className="inline-flex items-center gap-1 rounded bg-slate-100 px-2 py-0.5 text-sm dark:bg-slate-800">
                  {s.hostname}
                  <Button variant="ghost" size="sm" aria-label={`Remove ${s.hostname}`} onPress={() => setServers((list) => list.filter((x) => x.id !== s.id))}>
                    <Icon name="close" />
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
        {matchers.length ? (
          <MatchersEditor value={matchers} onChange={(v) => set('matchers', v)} />
        ) : (
          <div>
            <Button size="sm" onPress={() => set('matchers', [{ name: 'label.env', op: '=', value: '' }])}>
              Also cover alerts by matchers
            </Button>
          </div>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
            Starts ({tz})
            <input type="datetime-local" className={inputClass} value={start} onChange={(e) => set('start', e.target.value)} />
          </label>
          <Select<string> label="Lasts" className="w-40" options={lengthOptions} value={length} onChange={(v) => set('length', v)} />
          <TextField label="Time zone" className="w-48" value={tz} onChange={(v) => set('tz', v)} />
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <Select<Repeat>
            label="Repeats"
            className="w-56"
            options={[
              { value: 'once', label: 'Once' },
              { value: 'daily', label: 'Every day' },
              { value: 'weekly', label: 'Every week on that day' },
              { value: 'monthly', label: 'Every month, same weekday (e.g. 3rd Tuesday)' },
              { value: 'custom', label: 'Custom (RRULE)' },
            ]}
            value={repeat}
            onChange={(v) => set('repeat', v)}
          />
          {repeat === 'custom' ? (
            <TextField label="RRULE" className="min-w-64 flex-1" value={custom} onChange={(v) => set('custom', v)} placeholder="e.g. FREQ=MONTHLY;BYDAY=+3TU" />
          ) : (
            repeat !== 'once' && <code className="pb-2 text-xs text-slate-600 dark:text-slate-400">{ruleFor(repeat, start, custom)}</code>
          )}
        </div>
        <TextField label="Comment" value={comment} onChange={(v) => set('comment', v)} placeholder="Optional" />
        <MatchPreview
          body={{ serverIds: servers.map((s) => s.id), matchers: ready }}
          options={windowPreviewQueryOptions}
          enabled={servers.length > 0 || ready.length > 0}
          what="servers or a matcher"
        />
        {form.formError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {form.formError}
          </p>
        )}
      </form>
    </FormDrawer>
  );
}
