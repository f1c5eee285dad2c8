/**
 * Whether the tab still reaches the API, and since when its data is old (issue 24 §3). Two
 * sources: every API response or network failure (the HTTP client's reach reports) and the live
 * stream's status. Lost is never signed out: only a 401 signs a person out (SPEC §8).
 */
export interface ConnectionState {
  lost: boolean;
  /** When data last arrived (a response or a stream frame), in ms; frozen while lost. */
  lastGoodAt: number;
  /** The live stream is open: screens need not poll. */
  streaming: boolean;
}

let requestLost = false;
let streamLost = false;
let streaming = false;
let state: ConnectionState = { lost: false, lastGoodAt: Date.now(), streaming: false };
const listeners = new Set<() => void>();

function update(): void {
  const lost = requestLost || streamLost;
  if (lost === state.lost && streaming === state.streaming && (lost || Date.now() - state.lastGoodAt < 1_000)) return;
  state = { lost, lastGoodAt: lost ? state.lastGoodAt : Date.now(), streaming };
  for (const l of listeners) l();
}

/** A response arrived (true) or a request got none (false). */
export function markReached(reached: boolean): void {
  requestLost = !reached;
  update();
}

export function markStream(status: 'connecting' | 'live' | 'lost'): void {
  if (status === 'connecting') return;
  streamLost = status === 'lost';
  streaming = status === 'live';
  update();
}

/** Data arrived on the stream. */
export function markFresh(): void {
  update();
}

export function subscribeConnection(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const connectionState = (): ConnectionState => state;

