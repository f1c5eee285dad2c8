import { chmodSync, existsSync, unlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join, resolve } from 'node:path';

/**
 * The running server's local control channel: HTTP over a Unix socket in DATA_DIR, readable and
 * writable by the server's own user only (like the database files beside it). Only the process
 * that has the embedded database open can dump it consistently, so `opsdeck backup` asks it here;
 * `opsdeck restore` asks whether a server runs before it touches the folder.
 */
export const controlSocketPath = (dataDir: string) => join(resolve(dataDir), 'opsdeck.sock');

/** Unix socket paths are limited to 108 bytes (sun_path) on Linux, including the final NUL. */
const MAX_SOCKET_PATH = 107;

export interface ControlHandlers {
  /** A consistent dump of the database, as the backup file's bytes. */
  backup(): Promise<Uint8Array>;
}

export interface ServerStatus {
  pid: number;
  version: string;
}

export class ControlChannelError extends Error {}

/** Listens on DATA_DIR/opsdeck.sock; undefined (with a warning) when the path is too long for a socket. */
export async function startControlChannel(dataDir: string, version: string, handlers: ControlHandlers, warn: (msg: string) => void): Promise<Server | undefined> {
  const path = controlSocketPath(dataDir);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    warn(`The control socket path ${path} is too long for a Unix socket: 'opsdeck backup' cannot reach this server (use a shorter DATA_DIR).`);
    return undefined;
  }
  if (existsSync(path)) {
    const running = await serverStatus(dataDir);
    if (running) throw new ControlChannelError(`Another Opsdeck (pid ${running.pid}) serves the data folder ${resolve(dataDir)}.`);
    unlinkSync(path); // left behind by a process that died
  }
  const server = createServer((req, res) => {
    const reply = (status: number, body: string | Uint8Array, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (req.method === 'GET' && req.url === '/status') return reply(200, JSON.stringify({ pid: process.pid, version } satisfies ServerStatus));
    if (req.method === 'POST' && req.url === '/backup') {
      handlers.backup().then(
        (bytes) => reply(200, bytes, 'application/octet-stream'),
        (err: unknown) => reply(500, JSON.stringify({ message: err instanceof Error ? err.message : String(err) })),
      );
      return;
    }
    reply(404, JSON.stringify({ message: 'unknown control call' }));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  chmodSync(path, 0o600);
  server.on('close', () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  });
  return server;
}

interface Reply {
  status: number;
  body: Buffer;
}

/** One call on the control socket; undefined when no server listens there. */
function call(dataDir: string, method: string, path: string, timeoutMs: number): Promise<Reply | undefined> {
  const socketPath = controlSocketPath(dataDir);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((ok, fail) => {
    const req = request({ socketPath, method, path, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(new ControlChannelError(`The server on ${socketPath} did not answer within ${timeoutMs / 1000} s.`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A socket file nobody listens on: the server that made it is gone.
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') ok(undefined);
      else fail(err);
    });
    req.end();
  });
}

/** The server running on this data folder, if one is. */
export async function serverStatus(dataDir: string): Promise<ServerStatus | undefined> {
  const reply = await call(dataDir, 'GET', '/status', 5000);
  return reply?.status === 200 ? (JSON.parse(reply.body.toString()) as ServerStatus) : undefined;
}

/** Asks the running server for a backup; undefined when none runs on this data folder. */
export async function backupFromRunningServer(dataDir: string): Promise<Uint8Array | undefined> {
  const reply = await call(dataDir, 'POST', '/backup', 10 * 60_000);
  if (!reply) return undefined;
  if (reply.status !== 200) {
    let message = reply.body.toString();
    try {
      message = (JSON.parse(message) as { message: string }).message;
    } catch {
      // not JSON: show it as it came
    }
    throw new ControlChannelError(`The running server could not make the backup: ${message}`);
  }
  return reply.body;
}
