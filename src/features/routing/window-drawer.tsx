import { useQuery } from '@tanstack/react-query';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { useEffect, useState, type FormEvent } from 'react';
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
import { useCommandRunner } from '../../app/command-host/run-command';
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
  const runner = useCommandRunner();
  const existing = useQuery({ ...windowQueryOptions(id ?? ''), enabled: id !== null });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const [name, setName] = useState('');
  const [servers, setServers] = useState<{ id: string; hostname: string }[]>([]);
  const [search, setSearch] = useState('');
  const [matchers, setMatchers] = useState<Matcher[]>([]);
  const [tz, setTz] = useState(zone);
  const [start, setStart] = useState(() => formatInTimeZone(new Date(Date.now() + 3_600_000), zone, "yyyy-MM-dd'T'HH:00"));
  const [length, setLength] = useState<string>('7200');
  const [repeat, setRepeat] = useState<Repeat>('once');
  const [custom, setCustom] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ form?: string; name?: string }>({});
  const [busy, setBusy] = useState(false);
  const options = useQuery(serverChoicesQueryOptions({ pageNumber: 1, pageSize: 20, search: search || undefined, sort: { by: 'hostname', direction: 'asc' } }));

  useEffect(() => {
    const w = existing.data?.result;
    if (!w) return;
    setName(w.name);
    setMatchers(w.matchers);
    setTz(w.timezone);
    setStart(formatInTimeZone(new Date(w.startsAt), w.timezone, WALL));
    setLength(String((Date.parse(w.endsAt) - Date.parse(w.startsAt)) / 1000));
    setRepeat(repeatOf(w.rrule));
    setCustom(w.rrule ?? '');
    setComment(w.comment);
    void Promise.all(w.serverIds.map((sid) => getServer(api, sid).then((r) => ({ id: sid, hostname: r.result.hostname })).catch(() => ({ id: sid, hostname: sid })))).then(setServers);
  }, [existing.data]);

  const ready = completeMatchers(matchers);
  const lengthOptions = lengths.some((l) => l.value === length) ? lengths : [...lengths, { value: length, label: `${Number(length) / 60} minutes` }];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setErrors({ name: 'Name the window' });
    setErrors({});
    setBusy(true);
    try {
      const startsAt = fromZonedTime(start, tz).toISOString();
      const fields = {
        servers: servers.map((s) => s.id),
        matchers: ready,
        start: startsAt,
        end: new Date(Date.parse(startsAt) + Number(length) * 1000).toISOString(),
        tz,
        rrule: ruleFor(repeat, start, custom) ?? '',
        comment,
      };
      const r = id === null ? await runner.runOrThrow('maintenance.create', { name, ...fields }) : await runner.runOrThrow('maintenance.edit', { window: id, name, ...fields });
      toast('success', (r.message ?? 'Saved').replace(/\*\*/g, ''));
      onClose();
    } catch (err) {
      setErrors({ form: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDrawer title={id === null ? 'New maintenance window' : 'Edit maintenance window'} formId="window-form" mode={id === null ? 'create' : 'edit'} busy={busy} loading={id !== null && existing.isPending} onClose={onClose}>
      <form id="window-form" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <TextField label="Name" isRequired value={name} onChange={setName} errorMessage={errors.name} placeholder="e.g. Sunday patching" />
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
          <MatchersEditor value={matchers} onChange={setMatchers} />
        ) : (
          <div>
            <Button size="sm" onPress={() => setMatchers([{ name: 'label.env', op: '=', value: '' }])}>
              Also cover alerts by matchers
            </Button>
          </div>
        )}
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
            Starts ({tz})
            <input type="datetime-local" className={inputClass} value={start} onChange={(e) => setStart(e.target.value)} />
          </label>
          <Select<string> label="Lasts" className="w-40" options={lengthOptions} value={length} onChange={setLength} />
          <TextField label="Time zone" className="w-48" value={tz} onChange={setTz} />
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
            onChange={setRepeat}
          />
          {repeat === 'custom' ? (
            <TextField label="RRULE" className="min-w-64 flex-1" value={custom} onChange={setCustom} placeholder="e.g. FREQ=MONTHLY;BYDAY=+3TU" />
          ) : (
            repeat !== 'once' && <code className="pb-2 text-xs text-slate-600 dark:text-slate-400">{ruleFor(repeat, start, custom)}</code>
          )}
        </div>
        <TextField label="Comment" value={comment} onChange={setComment} placeholder="Optional" />
        <MatchPreview
          body={{ serverIds: servers.map((s) => s.id), matchers: ready }}
          options={windowPreviewQueryOptions}
          enabled={servers.length > 0 || ready.length > 0}
          what="servers or a matcher"
        />
        {errors.form && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.form}
          </p>
        )}
      </form>
    </FormDrawer>
  );
}
