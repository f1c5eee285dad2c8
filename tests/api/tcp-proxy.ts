import net from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL in the outage tests): `cut()` drops
 * every connection and refuses new ones, as a crashed or firewalled database does; `restore()`
 * lets connections through again.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let port = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen();
  port = (server.address() as net.AddressInfo).port;
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    port,
    async cut() {
      const closed = stopListening();
      for (const s of sockets) s.destroy();
      await closed;
    },
    async restore() {
      if (!server.listening) await listen();
    },
    async close() {
      const closed = stopListening();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
