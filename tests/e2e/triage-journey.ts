import type { Page } from 'playwright-core';
import { openDatabase } from '../../server/db/client';
import { shown } from './browser';
import type { apiSession } from './http';

/**
 * The keyboard triage journey of issue 24 §8, as a keyboard operator does it, counting every key:
 * an alert fires → acknowledge it with a note → open its server → its CPU chart over the last hour
 * → maintenance on → resolve the alert → see it in History. Shared by the browser test
 * (tests/e2e/triage-keys.e2e.test.ts) and the bench (`npm run bench -- triage-keys`).
 *
 * The operator reads the screen: in a picker they type the words they have in mind one key at a
 * time and press Enter as soon as the highlighted row is the one they want (arrows when typing all
 * of it leaves it lower down). A chord (Ctrl+K) is one key; the notes' text is counted apart.
 * Each step's effect is checked through the API or the URL before the next one.
 */

type Session = Awaited<ReturnType<typeof apiSession>>;

export const TRIAGE = {
  host: 'db-02',
  alertname: 'high_cpu_usage',
  ackNote: 'Looking into it: CPU pegged since the deploy',
  resolveNote: 'Rolled the deploy back, CPU is normal again',
} as const;

/**
 * A small fleet with a history: servers, alerts fired earlier on other hosts, the alert that just
 * fired (high_cpu_usage on db-02), and newer resolved alerts of a flapping host — the newest
 * alerts of a fleet are often resolved ones, which is what made pickers list them first.
 */
export async function seedTriage(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    await database.query(
      `insert into servers (hostname, ipaddress, operating_system, is_agent_configured, created_at)
       select h, '127.0.51.' || n, 'linux', true, now() - make_interval(days => n::int)
       from unnest(array['db-01', 'db-02', 'web-01', 'web-02', 'cache-01']) with ordinality as t(h, n)`,
    );
    const alert = (hostname: string, alertname: string, severity: string, status: string, secondsAgo: number, summary: string, service: string | null = null) =>
      database.query(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject, summary, service, created_at, resolved_at)
         select id, hostname, ipaddress, $2::text, 'resouce_alert', $3::text, $4::text, $2::text || '-' || hostname || '-' || $5::int, $6::text, $7::text, now() - make_interval(secs => $5::int),
                case when $4::text = 'resolved' then now() - make_interval(secs => $5::int) + interval '20 seconds' end
         from servers where hostname = $1`,
        [hostname, alertname, severity, status, secondsAgo, summary, service],
      );
    await alert('web-02', 'instance_down', 'critical', 'firing', 2400, 'web-02 is down');
    await alert('web-01', 'high_disk_usage', 'warning', 'firing', 1500, 'High disk usage on web-01');
    // Two open alerts of one name on one host: the command line names them apart by service.
    await alert('db-01', 'service_down', 'warning', 'firing', 1200, 'Service nginx is down on db-01', 'nginx');
    await alert('db-01', 'service_down', 'warning', 'firing', 1100, 'Service redis is down on db-01', 'redis');
    await alert('db-02', 'high_cpu_usage', 'critical', 'resolved', 86_400, 'High CPU usage on db-02');
    await alert(TRIAGE.host, TRIAGE.alertname, 'critical', 'firing', 120, 'High CPU usage on db-02');
    for (const ago of [90, 60, 30]) await alert('cache-01', 'high_memory_usage', 'warning', 'resolved', ago, 'High memory usage on cache-01');
    await alert('db-01', 'high_cpu_usage', 'warning', 'resolved', 45, 'High CPU usage on db-01');
  } finally {
    await database.close();
  }
}

export interface StepCount {
  step: string;
  keys: number;
  text: number;
  /** What was pressed, in order ("Ctrl+K", "a", "Enter", "“note”"). */
  pressed: string[];
}

export interface JourneyCount {
  keys: number;
  text: number;
  steps: StepCount[];
}

/** How the console is driven: `now` uses what it offers today; `before` only what the console had before issue 24 (tab and range commands, the maintenance command and its pickers). */
export type Plan = 'now' | 'before';

const RESULTS = '[data-testid="palette-results"]';

class Operator {
  keys = 0;
  text = 0;
  pressed: string[] = [];
  constructor(private readonly page: Page) {}

  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
    this.keys++;
    this.pressed.push(key.replace('Control', 'Ctrl'));
  }

  /** The notes: typed, and counted apart from the keys. */
  async write(text: string): Promise<void> {
    await this.page.keyboard.type(text);
    this.text += text.length;
    this.pressed.push(`“${text}”`);
  }

  /** Until the palette's rows are all there will be for what is typed (the API's matches, the screen's choices). */
  private async settle(typed: string): Promise<void> {
    const page = this.page;
    await page
      .waitForFunction(
        ({ selector, typed }) => {
          const list = document.querySelector(selector);
          const field = document.querySelector<HTMLInputElement>('[role="dialog"][aria-label="Command palette"] input');
          if (!list || !field || field.value !== typed) return false;
          const settled = list.getAttribute('data-settled');
          // A console without data-settled (before issue 24): the API's matches for this text.
          return settled === null ? list.getAttribute('data-entities-for') === typed : settled === 'true';
        },
        { selector: RESULTS, typed },
        { timeout: 15_000 },
      )
      .catch(async () => {
        // Steps that search nothing never mark a text as searched on a console without data-settled.
        if ((await page.locator(RESULTS).getAttribute('data-settled')) !== null) throw new Error(`the palette did not settle on "${typed}"`);
      });
  }

  private async rows(): Promise<{ text: string; index: number; selected: boolean }[]> {
    return this.page.locator(`${RESULTS} [cmdk-item]`).evaluateAll((els) =>
      els.map((el) => ({
        text: el.textContent ?? '',
        index: Math.round(Number(/translateY\(([-\d.]+)px\)/.exec((el as HTMLElement).style.transform)?.[1] ?? 0) / 44),
        selected: el.getAttribute('data-selected') === 'true' || el.getAttribute('aria-selected') === 'true',
      })),
    );
  }

  /** Types `words` a key at a time until the highlighted row is `target`, then Enter (arrows if it is not first by then). */
  async pick(words: string, target: RegExp): Promise<void> {
    let typed = '';
    for (let i = 0; ; i++) {
      await this.settle(typed);
      const rows = await this.rows();
      if (rows.find((r) => r.selected && target.test(r.text))) return this.press('Enter');
      if (i >= words.length) {
        const wanted = rows.filter((r) => target.test(r.text)).sort((a, b) => a.index - b.index)[0];
        if (!wanted) throw new Error(`"${words}" does not find ${target}; rows: ${rows.map((r) => r.text).join(' | ')}`);
        for (let k = 0; k < wanted.index; k++) await this.press('ArrowDown');
        return this.press('Enter');
      }
      typed += words[i];
      await this.page.keyboard.type(words[i]!);
      this.keys++;
      this.pressed.push(words[i] === ' ' ? 'Space' : words[i]!);
    }
  }

  /** Enter on every prompt still open (optional ones, left empty), until the palette closes. */
  async skipRest(): Promise<void> {
    const palette = this.page.getByRole('dialog', { name: 'Command palette' });
    while (await palette.isVisible()) {
      await this.settle('');
      await this.press('Enter');
      await palette.waitFor({ state: 'hidden', timeout: 300 }).catch(() => undefined);
    }
  }

  async openPalette(): Promise<void> {
    await this.press('Control+k');
    await shown(this.page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox'));
  }
}

const poll = async <T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 15_000): Promise<T> => {
  const until = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/**
 * Runs the journey from the dashboard of a signed-in page and checks each step's effect: the
 * acknowledgement and its note, the server's detail, the CPU tab over Last 1 Hour, maintenance
 * on, the alert resolved with its note, the History panel open; then that the three changes are in
 * History as palette runs. Answers the keys and the text typed, per step.
 */
export async function runTriageJourney(page: Page, admin: Session, plan: Plan = 'now'): Promise<JourneyCount> {
  const op = new Operator(page);
  const steps: StepCount[] = [];
  const step = async (name: string, body: () => Promise<void>) => {
    const [keys, text, pressed] = [op.keys, op.text, op.pressed.length];
    await body();
    steps.push({ step: name, keys: op.keys - keys, text: op.text - text, pressed: op.pressed.slice(pressed) });
  };
  const { body: found } = await admin.call('POST', 'alerts/all', { pageNumber: 1, pageSize: 5, filter: { hostname: { eq: TRIAGE.host }, alertname: { eq: TRIAGE.alertname }, status: { eq: 'firing' } } });
  const alertId: string = found.result.data[0]._id;
  const serverId: string = found.result.data[0].serverId;
  const theAlert = /high cpu usage · db-02.*Active/;
  const alertNow = async () => (await admin.call('GET', `alerts/${alertId}`)).body.result;
  const url = () => new URL(page.url());
  const started = new Date(Date.now() - 1000).toISOString();

  await step('acknowledge it with a note', async () => {
    await op.openPalette();
    await op.pick('acknowledge', /Acknowledge alert/);
    await op.pick('db-02 cpu', theAlert);
    await op.write(TRIAGE.ackNote);
    await op.press('Enter');
    await op.skipRest();
    await poll(alertNow, (a) => a.acknowledgement?.note === TRIAGE.ackNote, 'acknowledged with the note');
  });

  await step('open its server', async () => {
    await op.openPalette();
    await op.pick('db-02', /^Server\s*db-02/);
    await poll(async () => url().pathname, (p) => p === `/servers/show/${serverId}`, 'its server’s detail');
  });

  await step('its CPU chart', async () => {
    await op.openPalette();
    if (plan === 'before') {
      await op.pick('open server detail tab', /Open server detail tab/);
      await op.pick('cpu', /^CPU$/);
    } else await op.pick('cpu', /CPU tab/);
    await poll(async () => url().searchParams.get('tab'), (t) => t === 'cpu', 'the CPU tab');
    await shown(page.getByRole('tab', { name: 'CPU', selected: true }));
  });

  await step('over the last hour', async () => {
    await op.openPalette();
    if (plan === 'before') {
      await op.pick('set chart time range', /Set chart time range/);
      await op.pick('last 1 hour', /^Last 1 Hour$/);
      await op.skipRest();
    } else await op.pick('last 1 hour', /Last 1 Hour/);
    await poll(async () => url().searchParams.get('range'), (r) => r === '1h', 'Last 1 Hour');
    await shown(page.getByRole('group', { name: 'Time range' }).getByRole('radio', { name: 'Last 1 Hour', checked: true }));
  });

  await step('maintenance on', async () => {
    await op.openPalette();
    if (plan === 'before') {
      await op.pick('toggle server maintenance', /Toggle server maintenance/);
      await op.pick('db-02', /db-02/);
      await op.pick('on', /^On \(suppress alarms\)$/);
    } else await op.pick('maintenance on', /Maintenance on/);
    await poll(async () => (await admin.call('GET', `servers/${serverId}`)).body.result.suppressAlarm, (s) => s === 'yes', 'maintenance on');
  });

  await step('resolve the alert', async () => {
    await op.openPalette();
    await op.pick('resolve alert', /Resolve alert/);
    await op.pick('db-02 cpu', theAlert);
    await op.write(TRIAGE.resolveNote);
    await op.press('Enter');
    await op.skipRest();
    await poll(alertNow, (a) => a.status === 'resolved' && JSON.stringify(a.timeline).includes(TRIAGE.resolveNote), 'resolved with the note');
  });

  await step('see it in History', async () => {
    await op.press('Alt+h');
    await shown(page.getByRole('dialog', { name: /history/i }).getByText(/alert\.resolve/).first());
  });

  // Every change is a command in History, run from the palette by this person, since the journey began.
  const wanted = ['alert.ack', 'server.toggle-maintenance', 'alert.resolve'];
  await poll(
    async () => {
      const { body } = await admin.call('POST', 'command-history/all', { pageNumber: 1, pageSize: 50, filter: { command: { in: wanted }, createdAt: { between: [started, new Date(Date.now() + 60_000).toISOString()] } } });
      return wanted.filter((c) => !body.result.data.some((h: { command: string; source: string; outcome: string; username: string }) => h.command === c && h.source === 'palette' && h.outcome === 'ok' && h.username === 'admin'));
    },
    (missing) => missing.length === 0,
    'commands missing from History',
  );
  return { keys: op.keys, text: op.text, steps };
}
