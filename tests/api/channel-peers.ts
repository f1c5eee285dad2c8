import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the peers outside the machine (issue 15): an Alertmanager-style webhook
 * receiver, a Teams Workflows webhook, PagerDuty's Events API v2, Telegram's Bot API and an ntfy
 * server. Each checks the request against the peer's published format and answers as the peer
 * does: a malformed payload gets the peer's 400, so a shape error in Opsdeck fails the test.
 *
 * Formats: prometheus.io "webhook_config" (payload version 4); Microsoft Teams Workflows webhook
 * (a message with an Adaptive Card attachment); developer.pagerduty.com Events API v2
 * (/v2/enqueue, 202 {status, message, dedup_key}); core.telegram.org/bots/api#sendmessage
 * ({ok, result} / {ok:false, error_code, description}); docs.ntfy.sh "publish as JSON".
 */

export interface PeerCall {
  peer: 'webhook' | 'teams' | 'pagerduty' | 'telegram' | 'ntfy' | 'busy' | 'reject' | 'hang';
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  body: any;
  at: number;
}

export const PEER_SECRETS = {
  signingSecret: 'hook-signing-secret-1234',
  routingKey: 'R0UT1NGKEY0123456789abcdef012345',
  botToken: '123456789:AAHk-telegram-secret-token-abcdef',
  ntfyToken: 'tk_ntfysecrettoken0123456789',
  ntfyTopic: 'opsdeck-alerts-9f3k2',
  chatId: '-1001234567890',
};

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isStrMap = (v: unknown) => isObj(v) && Object.values(v).every((x) => typeof x === 'string');
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Alertmanager webhook payload version 4: every field a receiver written for it reads. */
export function webhookProblems(b: any): string[] {
  const p: string[] = [];
  if (b?.version !== '4') p.push('version must be "4"');
  for (const k of ['groupKey', 'receiver', 'externalURL']) if (typeof b?.[k] !== 'string') p.push(`${k} must be a string`);
  if (!['firing', 'resolved'].includes(b?.status)) p.push('status must be firing or resolved');
  if (!Number.isInteger(b?.truncatedAlerts)) p.push('truncatedAlerts must be an integer');
  for (const k of ['groupLabels', 'commonLabels', 'commonAnnotations']) if (!isStrMap(b?.[k])) p.push(`${k} must map strings to strings`);
  if (!Array.isArray(b?.alerts) || !b.alerts.length) p.push('alerts must be a non-empty list');
  for (const a of b?.alerts ?? []) {
    if (!['firing', 'resolved'].includes(a?.status)) p.push('alerts[].status');
    if (!isStrMap(a?.labels) || typeof a.labels.alertname !== 'string') p.push('alerts[].labels with alertname');
    if (!isStrMap(a?.annotations)) p.push('alerts[].annotations');
    if (!RFC3339.test(a?.startsAt ?? '') || !RFC3339.test(a?.endsAt ?? '')) p.push('alerts[].startsAt/endsAt RFC 3339');
    if (typeof a?.generatorURL !== 'string' || typeof a?.fingerprint !== 'string') p.push('alerts[].generatorURL/fingerprint');
  }
  return p;
}

/** A Workflows webhook takes {type: "message", attachments: [Adaptive Card]}; connectors' MessageCard is refused. */
export function teamsProblems(b: any): string[] {
  const p: string[] = [];
  if (b?.type !== 'message') p.push('type must be "message"');
  const att = b?.attachments;
  if (!Array.isArray(att) || att.length !== 1) return [...p, 'attachments must hold one card'];
  if (att[0].contentType !== 'application/vnd.microsoft.card.adaptive') p.push('contentType must be application/vnd.microsoft.card.adaptive');
  const c = att[0].content;
  if (c?.type !== 'AdaptiveCard') p.push('content.type must be AdaptiveCard');
  if (!/^1\.[0-5]$/.test(c?.version ?? '')) p.push('content.version must be 1.0–1.5');
  if (!Array.isArray(c?.body) || !c.body.length) p.push('content.body must be a non-empty list');
  const known = new Set(['TextBlock', 'RichTextBlock', 'FactSet', 'ColumnSet', 'Container', 'Image']);
  for (const el of c?.body ?? []) {
    if (!known.has(el?.type)) p.push(`unknown element ${el?.type}`);
    if (el?.type === 'RichTextBlock' && !(Array.isArray(el.inlines) && el.inlines.every((i: any) => i?.type === 'TextRun' && typeof i.text === 'string'))) p.push('RichTextBlock.inlines must be TextRuns');
  }
  for (const a of c?.actions ?? []) if (a?.type === 'Action.OpenUrl' && !/^https?:\/\//.test(a.url ?? '')) p.push('Action.OpenUrl needs an http(s) url');
  return p;
}

/** PagerDuty Events API v2: the errors list it answers 400 "invalid event" with. */
export function pagerdutyProblems(b: any): string[] {
  const p: string[] = [];
  if (typeof b?.routing_key !== 'string' || b.routing_key.length !== 32) p.push("Length of 'routing_key' is incorrect (should be 32 characters)");
  if (!['trigger', 'acknowledge', 'resolve'].includes(b?.event_action)) p.push("'event_action' is invalid (must be one of the following: 'trigger', 'acknowledge' or 'resolve')");
  if (b?.dedup_key !== undefined && (typeof b.dedup_key !== 'string' || b.dedup_key.length > 255)) p.push("'dedup_key' must be a string of at most 255 characters");
  if (b?.event_action === 'trigger') {
    const pl = b.payload;
    if (!isObj(pl)) return [...p, "'payload' is missing or blank"];
    if (typeof pl.summary !== 'string' || !pl.summary || pl.summary.length > 1024) p.push("'payload.summary' is missing or blank");
    if (typeof pl.source !== 'string' || !pl.source) p.push("'payload.source' is missing or blank");
    if (!['critical', 'error', 'warning', 'info'].includes(pl.severity as string)) p.push("'payload.severity' is invalid");
    if (pl.timestamp !== undefined && !RFC3339.test(pl.timestamp as string)) p.push("'payload.timestamp' is invalid");
    for (const l of b.links ?? []) if (typeof l?.href !== 'string') p.push("'links[].href' is missing");
  } else if (typeof b?.dedup_key !== 'string') p.push(`'dedup_key' is required for ${b?.event_action}`);
  return p;
}

export function telegramProblems(b: any): string[] {
  const p: string[] = [];
  if (typeof b?.chat_id !== 'string' && typeof b?.chat_id !== 'number') p.push('Bad Request: chat_id is empty');
  if (typeof b?.text !== 'string' || !b.text.trim()) p.push('Bad Request: message text is empty');
  else if (b.text.length > 4096) p.push('Bad Request: message is too long');
  if (b?.parse_mode !== undefined && !['HTML', 'Markdown', 'MarkdownV2'].includes(b.parse_mode)) p.push("Bad Request: unsupported parse_mode");
  return p;
}

export function ntfyProblems(b: any): string[] {
  const p: string[] = [];
  if (typeof b?.topic !== 'string' || !/^[-_A-Za-z0-9]{1,64}$/.test(b.topic)) p.push('invalid topic');
  if (b?.message !== undefined && typeof b.message !== 'string') p.push('message must be a string');
  if (b?.title !== undefined && typeof b.title !== 'string') p.push('title must be a string');
  if (b?.priority !== undefined && !(Number.isInteger(b.priority) && b.priority >= 1 && b.priority <= 5)) p.push('invalid priority');
  if (b?.tags !== undefined && !(Array.isArray(b.tags) && b.tags.every((t: unknown) => typeof t === 'string'))) p.push('tags must be a list of strings');
  if (b?.click !== undefined && !/^https?:\/\//.test(b.click)) p.push('invalid click URL');
  // docs.ntfy.sh "Action buttons": at most three; view {label, url, clear?}; http {label, url, method?, headers?, body?, clear?}; broadcast {label, intent?, extras?, clear?}.
  if (b?.actions !== undefined) {
    if (!Array.isArray(b.actions)) p.push('actions must be a list');
    else {
      if (b.actions.length > 3) p.push('too many actions, at most 3');
      for (const a of b.actions) {
        if (!isObj(a) || !['view', 'http', 'broadcast'].includes(a.action as string)) p.push('action must be view, http or broadcast');
        else {
          if (typeof a.label !== 'string' || !a.label) p.push('action label required');
          if (a.action !== 'broadcast' && (typeof a.url !== 'string' || !/^https?:\/\//.test(a.url))) p.push('action url must be an http(s) URL');
          if (a.action === 'http' && a.method !== undefined && !['GET', 'POST', 'PUT', 'DELETE'].includes(a.method as string)) p.push('invalid action method');
          if (a.action === 'http' && a.headers !== undefined && !isStrMap(a.headers)) p.push('action headers must map strings to strings');
          if (a.action === 'http' && a.body !== undefined && typeof a.body !== 'string') p.push('action body must be a string');
          if (a.clear !== undefined && typeof a.clear !== 'boolean') p.push('action clear must be a boolean');
          const known = new Set(['action', 'label', 'url', 'clear', ...(a.action === 'http' ? ['method', 'headers', 'body'] : []), ...(a.action === 'broadcast' ? ['intent', 'extras'] : [])]);
          for (const k of Object.keys(a)) if (!known.has(k)) p.push(`unknown action field ${k}`);
        }
      }
    }
  }
  return p;
}

export interface Peers {
  url: string;
  calls: PeerCall[];
  /** How many 429s /busy answers (with Retry-After: retryAfterS) before it accepts. */
  busy: { remaining: number; retryAfterS: number };
  close(): Promise<void>;
}

/** A stand-in on loopback: each request's whole body, read, goes to `handle`; `url` is where it listens. */
export async function startStandIn(handle: (req: IncomingMessage, res: ServerResponse, raw: string) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function startPeers(): Promise<Peers> {
  const calls: PeerCall[] = [];
  const busy = { remaining: 0, retryAfterS: 7 };
  const peer = await startStandIn((req, res, raw) => {
    const url = req.url ?? '';
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    let body: any;
    try {
      body = JSON.parse(raw);
    } catch {
      return json(400, { error: 'body is not JSON' });
    }
    const record = (peer: PeerCall['peer']) => calls.push({ peer, path: url, headers: req.headers, raw, body, at: Date.now() });
    if (req.method !== 'POST') return json(405, { error: 'POST only' });
    if (!String(req.headers['content-type']).startsWith('application/json')) return json(415, { error: 'JSON only' });

    if (url.startsWith('/hook')) {
      record('webhook');
      const problems = webhookProblems(body);
      if (url === '/hook/signed') {
        const expected = `sha256=${createHmac('sha256', PEER_SECRETS.signingSecret).update(raw).digest('hex')}`;
        if (req.headers['x-opsdeck-signature'] !== expected) problems.push('bad signature');
      }
      return problems.length ? json(400, { problems }) : res.writeHead(200).end('ok');
    }
    if (url.startsWith('/teams')) {
      record(url === '/teams/reject' ? 'reject' : 'teams');
      if (url === '/teams/reject') return res.writeHead(400, { 'content-type': 'text/plain' }).end('The workflow rejected the request: BadRequest');
      const problems = teamsProblems(body);
      return problems.length ? json(400, { error: { code: 'InvalidRequestContent', message: problems.join('; ') } }) : res.writeHead(202).end();
    }
    if (url === '/pd/v2/enqueue') {
      record('pagerduty');
      const problems = pagerdutyProblems(body);
      if (problems.length) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: problems });
      if (body.routing_key !== PEER_SECRETS.routingKey) return json(400, { status: 'invalid event', message: 'Event object is invalid', errors: ['Invalid routing key'] });
      return json(202, { status: 'success', message: 'Event processed', dedup_key: body.dedup_key ?? 'generated' });
    }
    const tg = /^\/tg\/bot([^/]+)\/sendMessage$/.exec(url);
    if (tg) {
      record('telegram');
      if (decodeURIComponent(tg[1]!) !== PEER_SECRETS.botToken) return json(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      const problems = telegramProblems(body);
      if (problems.length) return json(400, { ok: false, error_code: 400, description: problems[0] });
      if (String(body.chat_id) !== PEER_SECRETS.chatId) return json(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
      return json(200, { ok: true, result: { message_id: calls.length, chat: { id: Number(body.chat_id), type: 'supergroup' }, date: Math.floor(Date.now() / 1000), text: body.text } });
    }
    if (url === '/ntfy/') {
      record('ntfy');
      if (req.headers.authorization !== undefined && req.headers.authorization !== `Bearer ${PEER_SECRETS.ntfyToken}`) return json(401, { code: 40101, http: 401, error: 'unauthorized', link: 'https://ntfy.sh/docs/publish/#authentication' });
      const problems = ntfyProblems(body);
      if (problems.length) return json(400, { code: 40001, http: 400, error: problems.join('; ') });
      return json(200, { id: `m${calls.length}`, time: Math.floor(Date.now() / 1000), event: 'message', topic: body.topic, message: body.message, title: body.title });
    }
    if (url === '/busy') {
      record('busy');
      if (busy.remaining > 0) {
        busy.remaining--;
        return json(429, { error: 'rate limited' }, { 'retry-after': String(busy.retryAfterS) });
      }
      const problems = teamsProblems(body);
      return problems.length ? json(400, { problems }) : res.writeHead(202).end();
    }
    return json(404, { error: 'no such path' });
  });
  return { ...peer, calls, busy };
}
