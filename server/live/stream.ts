import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadPersonalToken, personalTokenOf } from '../auth/personal-tokens';
import type { Database } from '../db/client';
import { HttpError } from '../http/errors';
import { loadSession, readToken } from '../http/session';
import type { LiveEvent, LiveHub } from './hub';

/** A stream whose reader stopped reading (this much unsent) is ended; the tab resumes from its cursor. */
const MAX_BUFFERED_BYTES = 1 << 20;
/** How many sent seqs a stream remembers, so a row read by both the resume and the hub goes once. */
const SENT_MEMORY = 4_096;

const frame = (event: string, data: unknown, id?: number) => `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Last-Event-ID (the header EventSource sends on reconnecting) or `?lastEventId=` (a first connect that resumes). */
function resumeFrom(request: FastifyRequest, query: string | undefined): number | undefined {
  const header = request.headers['last-event-id'];
  const given = typeof header === 'string' && header.trim() !== '' ? header.trim() : typeof query === 'string' && query !== '' ? query : undefined;
  if (given === undefined) return undefined;
  if (!/^\d{1,15}$/.test(given)) throw new HttpError(400, 'Last-Event-ID must be the id of an event this stream sent', 'Last-Event-ID');
  return Number(given);
}

/**
 * The open event streams of GET /api/live: server-sent events of what changed (alerts, servers,
 * services, checks, History records, on-call schedules), each fed by the hub. Each event's `id` is a cursor:
 * reconnecting with it (Last-Event-ID) replays what came after, or sends `reset` when that is no
 * longer kept. A heartbeat comment keeps proxies from closing an idle stream, and with it the
 * caller's session (or personal token) is looked at again: a signed-out or expired one ends the
 * stream with `signed-out`.
 */
export class LiveStreams {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly database: Database,
    private readonly hub: LiveHub,
    private readonly options: { heartbeatSeconds: number },
  ) {}

  /** Ends every open stream: they never end by themselves, and a closing server waits for its connections. */
  endAll(): void {
    for (const end of [...this.open]) end();
  }

  /**
   * Answers a request (already authenticated) with a stream on the raw connection: 406 unless it
   * accepts `text/event-stream`, 400 for a cursor this stream cannot have sent.
   */
  async serve(request: FastifyRequest, reply: FastifyReply, lastEventId: string | undefined): Promise<void> {
    const accept = request.headers.accept ?? '';
    if (!/text\/event-stream/i.test(accept)) throw new HttpError(406, 'GET /api/live is an event stream: send Accept: text/event-stream', 'accept');
    const after = resumeFrom(request, lastEventId);
    const { database, hub } = this;
    const personal = personalTokenOf(request);
    const sessionToken = personal === undefined ? readToken(request) : undefined;
    const stillSignedIn = async () => {
      if (personal !== undefined) return !!(await loadPersonalToken(database.db, personal));
      const session = await loadSession(database, sessionToken);
      return !!session && session !== 'expired';
    };

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // nginx buffers proxied answers unless told not to.
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    raw.flushHeaders();

    let ended = false;
    const sent = new Set<number>();
    const remember = (seq: number) => {
      sent.add(seq);
      if (sent.size > SENT_MEMORY) sent.delete(sent.values().next().value!);
    };
    const write = (text: string) => {
      if (ended) return;
      raw.write(text);
      if (raw.writableLength > MAX_BUFFERED_BYTES) end();
    };
    const send = (events: LiveEvent[], cursor: number) => {
      let text = '';
      for (const e of events) {
        if (sent.has(e.seq)) continue;
        remember(e.seq);
        text += frame(e.kind, { seq: e.seq, at: e.at, ...e.data }, Math.min(e.seq, cursor));
      }
      if (text) write(text);
    };

    // Live events are held while the resume is read, so none falls between the two.
    let held: [LiveEvent[], number][] | null = [];
    const unsubscribe = hub.subscribe((events, cursor) => (held ? held.push([events, cursor]) : send(events, cursor)));
    const heartbeat = setInterval(() => {
      write(': heartbeat\n\n');
      stillSignedIn().then(
        (ok) => {
          if (!ok) {
            write(frame('signed-out', {}));
            end();
          }
        },
        () => undefined,
      );
    }, this.options.heartbeatSeconds * 1_000);
    heartbeat.unref();
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      this.open.delete(end);
      raw.end();
    };
    this.open.add(end);
    raw.on('close', end);
    raw.on('error', end);

    // A reconnecting EventSource waits this long (ms) before trying again.
    write('retry: 1000\n\n');
    try {
      const cursor = hub.cursor();
      if (after === undefined) {
        write(frame('hello', { cursor, resumed: false }, cursor));
      } else {
        const replay = await hub.replay(after);
        if (replay === 'reset') {
          write(frame('reset', { cursor }, cursor));
        } else {
          write(frame('hello', { cursor, resumed: true, replayed: replay.length }));
          send(replay, cursor);
        }
      }
    } catch (error) {
      request.log.warn({ err: error }, 'Could not start a live stream');
      end();
      return;
    }
    const waiting = held;
    held = null;
    for (const [events, cursor] of waiting) send(events, cursor);
  }
}
