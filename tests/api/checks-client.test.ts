import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError } from '../../src/api/call';
import { createCheck, deleteCheck, getCheck, getCheckHistory, getCheckResults, getCheckUptime, listChecks, runCheckNow, updateCheck } from '../../src/api/checks';
import type { Api } from '../../src/api/client';
import { getIncidentReport } from '../../src/api/incident-report';
import { createStatusPage, deleteStatusPage, getPublicStatus, getStatusPage, listStatusPages, postStatusUpdate, resolveStatusIncident, updateStatusPage } from '../../src/api/status-pages';
import { injectApi } from '../commands/app-context';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * The web client's calls for checks, status pages and the incident report, against the real
 * server: each answer is checked against its declaration in server/contract/api-routes.ts (call()
 * throws ContractError where it does not match), so the table says what the server answers.
 */
const [pglite] = await backends();

describe('the checks, status pages and incident report client against the server', () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await startTestApp(pglite!);
    const u = await t.addUser({ role: 'admin', username: 'client-admin' });
    api = injectApi(t, await t.signIn(u.email, u.password));
  }, 60_000);
  afterAll(async () => t?.close());

  it('checks: create, read, list, change, run now, history, results, uptime, delete', async () => {
    const { result: made } = await createCheck(api, { name: 'client-tcp', kind: 'tcp', host: '127.0.0.1', port: 9, paused: true, intervalSeconds: 3600, timeoutSeconds: 2 });
    expect(made).toMatchObject({ name: 'client-tcp', kind: 'tcp', target: '127.0.0.1:9', paused: true, rules: [{ kind: 'down' }, { kind: 'latency' }, { kind: 'cert_expiry' }] });
    expect((await getCheck(api, made._id)).result._id).toBe(made._id);
    expect((await listChecks(api, { filter: { name: { eq: 'client-tcp' } } })).result).toMatchObject({ count: 1, data: [{ _id: made._id }] });
    expect((await updateCheck(api, made._id, { name: 'client-tcp-2' })).result.name).toBe('client-tcp-2');

    const { result: ran, run } = await runCheckNow(api, made._id);
    expect([ran._id, run.up, typeof run.error]).toEqual([made._id, false, 'string']);
    expect(ran.lastCheckedAt).not.toBeNull();
    const now = Date.now();
    expect((await getCheckHistory(api, made._id, { from: now - 3_600_000, to: now + 60_000 })).result.timestamps.length).toBeGreaterThan(0);
    const results = (await getCheckResults(api, made._id, 5)).result;
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ up: false });
    expect((await getCheckUptime(api, made._id)).result.days.length).toBeGreaterThan(0);

    expect((await deleteCheck(api, made._id)).result).toEqual({ _id: made._id });
    await expect(getCheck(api, made._id)).rejects.toMatchObject({ status: 404 });
  });

  it('status pages: create, read, list, change, post, resolve, the public view, delete', async () => {
    const { result: check } = await createCheck(api, { name: 'client-page-check', kind: 'tcp', host: '127.0.0.1', port: 9, paused: true, intervalSeconds: 3600 });
    const { result: page } = await createStatusPage(api, { slug: 'client-page', title: 'Client page', groups: [{ name: 'Web', items: [{ kind: 'check', id: check._id, displayName: 'Shop' }] }] });
    expect(page).toMatchObject({ slug: 'client-page', groups: [{ name: 'Web', items: [{ kind: 'check', id: check._id, name: 'client-page-check' }] }], openIncident: null });
    expect((await getStatusPage(api, page._id)).result._id).toBe(page._id);
    expect((await listStatusPages(api, { filter: { slug: { eq: 'client-page' } } })).result.count).toBe(1);
    expect((await updateStatusPage(api, page._id, { description: 'What customers use' })).result.description).toBe('What customers use');

    expect((await postStatusUpdate(api, page._id, { body: 'Looking into it' })).result).toMatchObject({ opened: true, incident: { title: 'Looking into it', resolvedAt: null }, post: { body: 'Looking into it' } });
    expect((await resolveStatusIncident(api, page._id, {})).result.incident.resolvedAt).not.toBeNull();
    const view = (await getPublicStatus(injectApi(t), 'client-page')).result;
    expect(view).toMatchObject({ title: 'Client page', groups: [{ name: 'Web', items: [{ name: 'Shop', state: 'maintenance' }] }], incidents: [{ title: 'Looking into it' }] });

    expect((await deleteStatusPage(api, page._id)).result).toEqual({ _id: page._id });
    await expect(getPublicStatus(injectApi(t), 'client-page')).rejects.toMatchObject({ status: 404 });
  });

  it('the incident report of a window', async () => {
    const report = (await getIncidentReport(api, { from: new Date(Date.now() - 3_600_000).toISOString(), to: new Date().toISOString() })).result;
    expect(report.markdown).toMatch(/^# /);
    expect(report.commands).toBeGreaterThan(0);
  });

  it('an answer outside its declaration is refused, not passed on', async () => {
    const liar = { get: async () => ({ result: { days: 'none' } }) } as unknown as Api;
    await expect(getCheckUptime(liar, '00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(ContractError);
  });
});
