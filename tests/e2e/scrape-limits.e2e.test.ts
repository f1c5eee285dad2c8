/**
 * A target over its limits, on the screen (issue 25 §6): a server whose exporter sends a label
 * value longer than SCRAPE_LABEL_LIMIT shows "Over limits" in its header with the reason, never
 * "Running".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveExporter, type StandIn } from '../monitoring/hostile-exporters';
import { openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';
import { startServer, type RunningServer } from './server-process';

describe('a target over its limits on the screen', () => {
  let server: RunningServer;
  let exporter: StandIn;
  let b: Browser;
  let id: string;

  beforeAll(async () => {
    exporter = await serveExporter({ type: 'label', bytes: 4096 });
    server = await startServer({ env: { SCRAPE_INTERVAL: '1' } });
    const admin = await apiSession(server.url);
    const res = await admin.call('POST', 'servers', { hostname: 'long-label', ipaddress: '127.0.0.1', operating_system: 'linux', agentPort: exporter.port, isAgentConfigured: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    id = (res.body as { result: { _id: string } }).result._id;
    b = await openBrowser(server.url);
    await signIn(b.page);
  }, 180_000);

  afterAll(async () => {
    await b?.close();
    await server?.stop();
    await exporter?.close();
  });

  it('shows "Over limits" and the reason in the server header', async () => {
    await b.page.goto(`/servers/show/${id}`);
    await shown(b.page.getByRole('status', { name: 'State: Over limits' }), 30_000);
    const note = b.page.getByRole('alert').filter({ hasText: 'This target is over its limits' });
    await shown(note);
    await shown(note.getByText('The value of label "name" of node_systemd_unit_state is 4,104 bytes long, over the limit of 1,024 (SCRAPE_LABEL_LIMIT)', { exact: false }));
    expect(await b.page.getByText('Running', { exact: true }).count()).toBe(0);
  });
});
