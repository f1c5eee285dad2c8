import { createParser } from 'eventsource-parser';
import { endpointPath } from './call';
import { apiUrl, isGatewayStatus, reportReach, reportUnauthorized } from './client';

/** One event of GET /api/live: its kind (alert, server, servers, services, check, history, schedule) and what the server said. */
export interface LiveMessage {
  kind: string;
  data: { seq?: number; change?: string; id?: string; [key: string]: unknown };
}

export type LiveStatus = 'connecting' | 'live' | 'lost';

export interface LiveHandlers {
  onMessage: (message: LiveMessage) => void;
  /** The stream (re)started without a resume, or its resume was refused (`reset`): what is shown may have missed changes. */
  onRestart: (why: 'first' | 'reconnected' | 'reset') => void;
  onStatus: (status: LiveStatus) => void;
}

/** Beyond the 15 s heartbeat plus slack, silence means the stream is dead though the socket looks open. */
const SILENCE_MS = 40_000;
const RETRY_MS = [1_000, 2_000, 4_000, 8_000];

/**
 * The tab's one stream of changes (GET /api/live), read with fetch rather than EventSource: an
 * EventSource cannot tell a 401 (signed out: SPEC §8) from a network failure (stay signed in,
 * say the connection is lost), and the difference is the point. Reconnects by itself with the
 * last cursor (Last-Event-ID), so nothing is missed across a drop; `seq` drops what a resume sends
 * twice.
 */
export class LiveConnection {
  private abort: AbortController | undefined;
  private stopped = false;
  private cursor: string | undefined;
  private seen = new Set<number>();
  private attempt = 0;
  private status: LiveStatus = 'connecting';
  private retry: ReturnType<typeof setTimeout> | undefined;
  private everLive = false;

  constructor(private readonly handlers: LiveHandlers) {}

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.abort?.abort();
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.status) return;
    this.status = status;
    this.handlers.onStatus(status);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const abort = new AbortController();
    this.abort = abort;
    let silence: ReturnType<typeof setTimeout> | undefined;
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => abort.abort(), SILENCE_MS);
    };
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (this.cursor) headers['last-event-id'] = this.cursor;
      const res = await fetch(apiUrl(endpointPath('live.stream')), { headers, credentials: 'include', signal: abort.signal, cache: 'no-store' });
      if (res.status === 401) {
        this.stopped = true;
        reportUnauthorized('live');
        return;
      }
      if (!res.ok || !res.body) {
        // The API answered (a 5xx of its own) or a proxy answered for it: either way no stream.
        reportReach(!isGatewayStatus(res.status));
        throw new Error(`live stream answered ${res.status}`);
      }
      alive();
      const resumed = !!this.cursor;
      const parser = createParser({
        onEvent: (event) => {
          if (event.id) this.cursor = event.id;
          const kind = event.event ?? 'message';
          let data: LiveMessage['data'] = {};
          try {
            data = JSON.parse(event.data) as LiveMessage['data'];
          } catch {
            return;
          }
          if (kind === 'hello' || kind === 'reset') {
            this.attempt = 0;
            this.setStatus('live');
            reportReach(true);
            if (kind === 'reset') this.handlers.onRestart('reset');
            else if (!resumed) this.handlers.onRestart(this.everLive ? 'reconnected' : 'first');
            this.everLive = true;
            return;
          }
          if (kind === 'signed-out') {
            this.stopped = true;
            reportUnauthorized('live');
            return;
          }
          if (typeof data.seq === 'number') {
            if (this.seen.has(data.seq)) return;
            this.seen.add(data.seq);
            if (this.seen.size > 4_096) this.seen.delete(this.seen.values().next().value!);
          }
          this.handlers.onMessage({ kind, data });
        },
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        alive();
        parser.feed(value);
      }
    } catch {
      // A network failure, an aborted silent stream, or a refused answer: try again below.
    } finally {
      clearTimeout(silence);
    }
    if (this.stopped) return;
    // Cut off: the API did not answer or the stream ended. Not a sign-out.
    if (this.attempt > 0 || this.status === 'live') {
      this.setStatus('lost');
      reportReach(false);
    }
    const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)]!;
    this.attempt++;
    this.retry = setTimeout(() => void this.connect(), wait);
  }
}
