import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { buildIncidentMarkdown, escapeBlockLines, escapeInline, spanOf, type ReportData } from './report-markdown';

const t = (hhmmss: string) => new Date(`2026-11-23T${hhmmss}Z`);

/** A note written to break out of its quote: a heading, a table row, a fence, HTML and a link. */
const HOSTILE_NOTE = '## Alerts\n| a | b |\n```\n<script>alert(1)</script>\n  - [link](http://x)';

const dataset: ReportData = {
  from: t('09:00:00'),
  to: t('12:00:00'),
  server: null,
  generatedAt: t('12:30:00'),
  alerts: [
    {
      id: 'a1',
      alertname: 'instance_down',
      hostname: 'web-1',
      instance: '10.0.0.5',
      summary: 'web-1 is down',
      service: null,
      mountpoint: null,
      description: 'The monitoring agent at `10.0.0.5:9100` has not answered for 5 minutes.',
      severity: 'critical',
      status: 'resolved',
      createdAt: t('08:50:00'),
      resolvedAt: t('09:40:00'),
      timeline: [
        { type: 'firing', at: t('08:50:00'), note: null, by: null },
        { type: 'playbook_action', at: t('09:20:00'), note: HOSTILE_NOTE, by: 'bob' },
        { type: 'resolved', at: t('09:40:00'), note: 'Rebooted the VM.', by: 'ann' },
      ],
    },
    {
      id: 'a2',
      alertname: 'high_cpu_usage',
      hostname: 'db-1',
      instance: '10.0.0.6',
      summary: 'Service [Click to fix](https://evil.example/phish).service is down on db-1',
      service: '[Click to fix](https://evil.example/phish).service',
      mountpoint: null,
      description: 'The agent has reported ``` `[x](javascript:alert(1))`\n\n# h ``` down for **5 minutes**.',
      severity: 'warning',
      status: 'snoozed',
      createdAt: t('11:30:00'),
      resolvedAt: null,
      timeline: [
        { type: 'firing', at: t('11:30:00'), note: null, by: null },
        { type: 'snoozed', at: t('11:45:00'), note: 'Known batch job', by: 'ann' },
      ],
    },
  ],
  commands: [
    { at: t('09:15:00'), username: 'bob', command: 'server.edit', input: { server: 'web-1', suppressAlarm: 'yes' }, outcome: 'ok', error: null },
    { at: t('09:30:00'), username: 'ann', command: 'alert.update', input: { alert: 'a1', log: 'a | b' }, outcome: 'error', error: 'Bad | thing' },
    { at: t('11:50:00'), username: 'carol', command: 'server.delete', input: { server: 'db-1' }, outcome: 'refused', error: 'Only Admin or sysadmin accounts can do this.' },
  ],
  totalAlerts: 2,
  totalCommands: 3,
};

// Written by hand from the rules, not copied from the builder's output.
const expected = [
  '# Incident report: all servers, 2026-11-23 09:00:00 to 2026-11-23 12:00:00 UTC',
  '',
  'Window: 2026-11-23 09:00:00 UTC to 2026-11-23 12:00:00 UTC (3h). Generated 2026-11-23 12:30:00 UTC. All times are UTC.',
  '',
  '## Summary',
  '',
  '- **Alerts:** 2 (1 fired in the window, 1 resolved in the window, 1 still open at its end)',
  '- **Hosts involved:** db-1, web-1',
  '- **Commands run:** 3 (1 ok, 1 error, 1 refused)',
  '- **People involved:** ann, bob, carol',
  '',
  '## Alerts',
  '',
  '### instance\\_down on web-1',
  '',
  '- **Host:** web-1 (10.0.0.5)',
  '- **Summary:** web\\-1 is down',
  '- **Description:** The monitoring agent at `10.0.0.5:9100` has not answered for 5 minutes.',
  '- **Severity:** critical',
  '- **Status now:** Resolved',
  '- **Fired:** 2026-11-23 08:50:00 UTC',
  '- **Resolved:** 2026-11-23 09:40:00 UTC',
  '- **Duration:** 50m',
  '',
  '**Timeline**',
  '',
  '- 2026-11-23 08:50:00 UTC: Triggered',
  '- 2026-11-23 09:20:00 UTC: Note by bob',
  '  > \\#\\# Alerts\\',
  '  > \\| a \\| b \\|\\',
  '  > \\`\\`\\`\\',
  '  > \\<script\\>alert(1)\\</script\\>\\',
  '  > \\- `[link](http://x)`',
  '- 2026-11-23 09:40:00 UTC: Resolved by ann',
  '  > Rebooted the VM.',
  '',
  '### high\\_cpu\\_usage on db-1',
  '',
  '- **Host:** db-1 (10.0.0.6)',
  '- **Summary:** Service `[Click to fix](https://evil.example/phish).service` is down on db\\-1',
  // Written before issue 11, with a blank line inside its code span: it reads back as text.
  '- **Description:** The agent has reported \\`\\`\\` `[x](javascript:alert(1))` \\# h \\`\\`\\` down for **5 minutes**.',
  '- **Severity:** warning',
  '- **Status now:** Snoozed',
  '- **Fired:** 2026-11-23 11:30:00 UTC',
  '- **Resolved:** not yet',
  '- **Duration:** open for 30m at the end of the window',
  '',
  '**Timeline**',
  '',
  '- 2026-11-23 11:30:00 UTC: Triggered',
  '- 2026-11-23 11:45:00 UTC: Snoozed by ann',
  '  > Known batch job',
  '',
  '## Timeline',
  '',
  '| Time (UTC) | Who | What | Outcome |',
  '| --- | --- | --- | --- |',
  '| 2026-11-23 09:15:00 | bob | server.edit --server web-1 --suppressAlarm yes | ok |',
  '| 2026-11-23 09:20:00 | bob | Note on alert instance\\_down on web-1: \\#\\# Alerts \\| a \\| b \\| \\`\\`\\` \\<script\\>alert(1)\\</script\\> - `[link](http://x)` | noted |',
  '| 2026-11-23 09:30:00 | ann | alert.update --alert a1 --log "a \\| b" | error: Bad \\| thing |',
  '| 2026-11-23 09:40:00 | ann | Alert instance\\_down on web-1 resolved: Rebooted the VM. | Resolved |',
  '| 2026-11-23 11:30:00 | Opsdeck | Alert high\\_cpu\\_usage on db-1 fired | Active |',
  '| 2026-11-23 11:45:00 | ann | Alert high\\_cpu\\_usage on db-1 snoozed: Known batch job | Snoozed |',
  '| 2026-11-23 11:50:00 | carol | server.delete --server db-1 | refused: Only Admin or sysadmin accounts can do this. |',
  '',
].join('\n');

type Node = { type: string; depth?: number; children?: Node[]; value?: string };
const parse = (md: string) => unified().use(remarkParse).use(remarkGfm).parse(md) as unknown as Node;
function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const c of node.children ?? []) walk(c, visit);
}
const text = (n: Node): string => (n.type === 'break' ? '\n' : (n.value ?? '')) + (n.children ?? []).map(text).join('');

describe('incident report markdown', () => {
  it('matches the hand-written report for a fixed window of alerts, notes and commands', () => {
    expect(buildIncidentMarkdown(dataset)).toBe(expected);
  });

  it('keeps its structure whatever the notes say: the same headings, one table of four columns, no HTML, code or disguised links', () => {
    const tree = parse(buildIncidentMarkdown(dataset));
    const headings: string[] = [];
    const tables: Node[] = [];
    const forbidden: string[] = [];
    walk(tree, (n) => {
      if (n.type === 'heading') headings.push(`${'#'.repeat(n.depth!)} ${text(n)}`);
      if (n.type === 'table') tables.push(n);
      if (['html', 'code', 'image', 'thematicBreak'].includes(n.type)) forbidden.push(n.type);
      // GFM turns a bare URL into a link showing that URL; a link hiding its target is not allowed.
      if (n.type === 'link' && text(n) !== (n as { url?: string }).url) forbidden.push(`link ${text(n)}`);
    });
    expect(headings).toEqual([
      '# Incident report: all servers, 2026-11-23 09:00:00 to 2026-11-23 12:00:00 UTC',
      '## Summary',
      '## Alerts',
      '### instance_down on web-1',
      '### high_cpu_usage on db-1',
      '## Timeline',
    ]);
    expect(forbidden).toEqual([]);
    expect(tables).toHaveLength(1);
    const rows = tables[0]!.children!;
    expect(rows).toHaveLength(8);
    for (const row of rows) expect(row.children).toHaveLength(4);
    // The pipes come back as text inside their cell.
    expect(text(rows[3]!.children![2]!)).toBe('alert.update --alert a1 --log "a | b"');
    expect(text(rows[3]!.children![3]!)).toBe('error: Bad | thing');
    // The hostile note reads back exactly as written, line by line, inside its quote.
    const quotes: Node[] = [];
    walk(tree, (n) => n.type === 'blockquote' && quotes.push(n));
    expect(text(quotes[0]!).split('\n')).toEqual(['## Alerts', '| a | b |', '```', '<script>alert(1)</script>', '- [link](http://x)']);
  });

  it('says so when a window is empty, names its server, and tells when the lists were cut short', () => {
    const md = buildIncidentMarkdown({
      ...dataset,
      server: { hostname: 'web|1', ipaddress: '10.0.0.5' },
      alerts: [],
      commands: [],
      totalAlerts: 700,
      totalCommands: 0,
    });
    expect(md).toBe(
      [
        '# Incident report: web\\|1 (10.0.0.5), 2026-11-23 09:00:00 to 2026-11-23 12:00:00 UTC',
        '',
        'Window: 2026-11-23 09:00:00 UTC to 2026-11-23 12:00:00 UTC (3h). Generated 2026-11-23 12:30:00 UTC. All times are UTC.',
        '',
        '## Summary',
        '',
        '- **Alerts:** 0 (0 fired in the window, 0 resolved in the window, 0 still open at its end)',
        '- **Hosts involved:** none',
        '- **Commands run:** 0',
        '- **People involved:** none',
        '',
        '_Only the first 0 of 700 alerts are listed; choose a shorter window or one server to see the rest._',
        '',
        '## Alerts',
        '',
        'No alerts were open in this window.',
        '',
        '## Timeline',
        '',
        'Nothing happened in this window.',
        '',
      ].join('\n'),
    );
  });

  it('marks planned downtime: the windows, the alerts that opened inside one, and how many alerts were unplanned (issue 14 §3)', () => {
    const [down, cpu] = dataset.alerts;
    const md = buildIncidentMarkdown({
      ...dataset,
      commands: [],
      totalCommands: 0,
      alerts: [{ ...down!, plannedDowntime: { window: 'Patch *night*', start: t('08:45:00'), end: t('09:45:00') } }, cpu!],
      plannedWindows: [{ name: 'Patch *night*', start: t('08:45:00'), end: t('09:45:00'), covers: 'web-1, label.env=prod' }],
    });
    expect(md).toContain(
      [
        '- **Planned downtime:** 1 maintenance window; 1 alert opened during planned downtime (not counted as incidents)',
        '- **Unplanned alerts:** 1',
        '',
        '## Planned downtime',
        '',
        '- 2026-11-23 08:45:00 UTC to 2026-11-23 09:45:00 UTC: maintenance window “Patch \\*night\\*” (1h; web-1, label.env=prod)',
        '',
        '## Alerts',
        '',
        '### instance\\_down on web-1 (planned downtime)',
        '',
        '- **Host:** web-1 (10.0.0.5)',
        '- **Planned downtime:** opened inside maintenance window “Patch \\*night\\*” (2026-11-23 08:45:00 UTC to 2026-11-23 09:45:00 UTC)',
      ].join('\n'),
    );
    expect(md).toContain('### high\\_cpu\\_usage on db-1\n');
    expect(md).toContain('| 2026-11-23 11:30:00 | Opsdeck | Alert high\\_cpu\\_usage on db-1 fired | Active |');
    // Without windows or planned alerts the report is as before (the hand-written one above).
    expect(buildIncidentMarkdown({ ...dataset, plannedWindows: [] })).toBe(expected);
  });

  it('escapes inline text and block lines', () => {
    expect(escapeInline('a|b *c* _d_ [e](f) <g> `h` #i ~j~ &amp; \\k\nl')).toBe('a\\|b \\*c\\* \\_d\\_ \\[e\\](f) \\<g\\> \\`h\\` \\#i \\~j\\~ \\&amp; \\\\k l');
    // A bare address would become a GFM link whatever is escaped in it: it goes in a code span.
    expect(escapeInline('admin@opsdeck.test')).toBe('`admin@opsdeck.test`');
    expect(escapeInline('www.evil.example|x')).toBe('`www.evil.example\\|x`');
    expect(escapeInline('see https://evil.example/`x` *now*')).toBe('see `` https://evil.example/`x` `` \\*now\\*');
    expect(escapeBlockLines('\n1. first\n+ plus\n===\n\n    indented\\\n')).toEqual(['1\\. first\\', '\\+ plus\\', '\\===', '', 'indented\\\\']);
  });

  it('formats durations with their two largest units', () => {
    expect(spanOf(0)).toBe('0s');
    expect(spanOf(45_000)).toBe('45s');
    expect(spanOf(12 * 60_000 + 5_000)).toBe('12m 5s');
    expect(spanOf(3_600_000 + 5_000)).toBe('1h');
    expect(spanOf(3_900_000)).toBe('1h 5m');
    expect(spanOf(2 * 86_400_000 + 3 * 3_600_000 + 59_000)).toBe('2d 3h');
  });
});
