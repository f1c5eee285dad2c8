import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { asDeclared, backends, startTestApp, type TestApp } from './harness';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

/**
 * Nobody on call (issue 27 §7; docs/oncall.md): the gaps of each schedule's next 7 days, from the
 * final schedule (restrictions that leave nights uncovered, an override that fills one), and the
 * mail to the schedule's owners (its creator and the admins) once per gap, over real SMTP.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** The nights (18:00–09:00 UTC) of [from, to), clipped to it: where an office-hours layer leaves nobody. */
function nights(from: number, to: number): { start: string; end: string }[] {
  const out: { start: string; end: string }[] = [];
  for (let day = Math.floor(from / DAY) * DAY - DAY; day < to; day += DAY) {
    const start = Math.max(from, day + 18 * HOUR);
    const end = Math.min(to, day + DAY + 9 * HOUR);
    if (end > start) out.push({ start: iso(start), end: iso(end) });
  }
  return out;
}

describe.each(await backends())('nobody on call on $name', (backend) => {
  let t: TestApp;
  let sys: string;
  let reader: string;
  let ana = '';
  let office = '';
  let always = '';
  let smtp: SmtpSink;

  const gaps = async (schedule?: string) => {
    const res = await t.call('GET', `/api/oncall/gaps${schedule ? `?schedule=${encodeURIComponent(schedule)}` : ''}`, { cookie: reader });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(asDeclared('oncall.gaps', res.body)).toEqual(res.body);
    return res.body.result as { schedule: { _id: string; name: string }; from: string; to: string; gaps: { start: string; end: string }[] }[];
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(backend, { delivery: { ...testConfig().delivery, smtpUrl: smtp.url, channelTimeoutMs: 3000 }, publicUrl: 'https://ops.example.com' });
    ana = (await t.addUser({ role: 'user', username: 'ana', email: 'ana@example.com' }))._id;
    reader = await t.signIn('ana@example.com', 'pw-123456');
    const s = await t.addUser({ role: 'sysadmin', username: 'sys-owner', email: 'sys-owner@example.com' });
    sys = await t.signIn(s.email, s.password);
    await t.addUser({ role: 'admin', username: 'boss', email: 'boss@example.com' });
    await t.addUser({ role: 'admin', username: 'gone', email: 'gone@example.com', status: 'suspended' });
    const layer = { name: 'office', participants: [ana], shift: { length: 1, unit: 'weeks' }, start: '2026-01-05', handoff: '09:00' };
    const made = await t.call('POST', '/api/oncall-schedules', { cookie: sys, body: { name: 'Office', timeZone: 'UTC', layers: [{ ...layer, restrictions: [{ type: 'daily', from: '09:00', to: '18:00' }] }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    office = made.body.result._id;
    const full = await t.call('POST', '/api/oncall-schedules', { cookie: sys, body: { name: 'Always', timeZone: 'UTC', layers: [{ ...layer, name: 'all day' }] } });
    always = full.body.result._id;
  });
  afterAll(async () => Promise.all([t?.close(), smtp?.close()]));

  it('finds the nights an office-hours layer leaves uncovered in the next 7 days; a schedule always covered has none', async () => {
    const [answer] = await gaps('office');
    expect(answer!.schedule).toEqual({ _id: office, name: 'Office' });
    const from = Date.parse(answer!.from);
    expect(Date.parse(answer!.to) - from).toBe(7 * DAY);
    expect(answer!.gaps).toEqual(nights(from, from + 7 * DAY));
    expect((await gaps(always))[0]!.gaps).toEqual([]);
    // Every schedule: only those with a gap.
    expect((await gaps()).map((g) => g.schedule.name)).toEqual(['Office']);
    expect((await t.call('GET', '/api/oncall/gaps?schedule=nope', { cookie: reader })).status).toBe(404);
    expect((await t.call('GET', '/api/oncall/gaps?when=soon', { cookie: reader })).status).toBe(400);
  });

  it('an override over a night fills that gap, and only that one', async () => {
    const [before] = await gaps(office);
    const night = before!.gaps[1]!;
    const made = await t.call('POST', `/api/oncall-schedules/${office}/overrides`, { cookie: sys, body: { user: ana, start: night.start, end: night.end } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [after] = await gaps(office);
    expect(after!.gaps).toEqual(nights(Date.parse(after!.from), Date.parse(after!.to)).filter((g) => g.start !== night.start));
    await t.call('DELETE', `/api/oncall-schedules/${office}/overrides/${made.body.result.overrides[0]._id}`, { cookie: sys });
  });

  it("mails the schedule's owners (its creator and the active admins) once per gap, not on every evaluation", async () => {
    const mine = () => smtp.mails.filter((m) => m.subject === 'Nobody on call in Office');
    const seen = mine().length;
    await t.app.oncallGaps.evaluate();
    expect(mine()).toHaveLength(seen + 1);
    const mail = mine().at(-1)!;
    expect(mail.to.sort()).toEqual(['boss@example.com', 'sys-owner@example.com']);
    expect(mail.text).toContain('Nobody is on call in the on-call schedule "Office" in the next 7 days:');
    expect(mail.text).toContain(`https://ops.example.com/oncall/${office}`);
    const [now] = await gaps(office);
    const first = now!.gaps[0]!;
    expect(mail.text).toContain(`- from ${first.start.slice(0, 16).replace('T', ' ')} UTC to ${first.end.slice(0, 16).replace('T', ' ')} UTC`);
    expect(smtp.mails.some((m) => m.subject === 'Nobody on call in Always')).toBe(false);
    // Nothing new: nothing sent.
    await t.app.oncallGaps.evaluate();
    await t.app.oncallGaps.evaluate(Date.now() + 60_000);
    expect(mine()).toHaveLength(seen + 1);
    // A new gap: "Always" edited to leave its nights uncovered is told of, once, and "Office" is not told again.
    const edited = await t.call('PATCH', `/api/oncall-schedules/${always}/layers/all%20day`, { cookie: sys, body: { restrictions: [{ type: 'daily', from: '06:00', to: '22:00' }] } });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    await t.app.oncallGaps.evaluate();
    const other = smtp.mails.filter((m) => m.subject === 'Nobody on call in Always');
    expect(other).toHaveLength(1);
    expect(other[0]!.text).toMatch(/- from \d{4}-\d\d-\d\d 22:00 UTC to \d{4}-\d\d-\d\d 06:00 UTC/);
    expect(mine()).toHaveLength(seen + 1);
  });
});
