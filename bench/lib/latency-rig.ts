import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { nodeExporterWithDisk } from '../../server/monitoring/fixtures/node-exporter';

/**
 * What the crossing → email benches drive (alert-latency, scrape-load): one exporter in this
 * process whose disk figure the bench sets (it records when it was scraped), and a real SMTP
 * server that records when each email arrived and its subject.
 */
export interface LatencyRig {
  exporterPort: number;
  smtpPort: number;
  /** When each scrape of the exporter came (ms). */
  scrapes: number[];
  mails: { at: number; subject: string }[];
  setDisk(percent: number): void;
  close(): Promise<void>;
}

export async function startLatencyRig(): Promise<LatencyRig> {
  let diskPct = 40;
  const scrapes: number[] = [];
  const exporter = createServer((req, res) => {
    if (req.url !== '/metrics') return res.writeHead(404).end();
    scrapes.push(Date.now());
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(nodeExporterWithDisk(diskPct));
  });
  await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
  const mails: { at: number; subject: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const at = Date.now();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({ at, subject: /^Subject:\s*(.*)$/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '' });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    exporterPort: (exporter.address() as AddressInfo).port,
    smtpPort: (smtp.server.address() as AddressInfo).port,
    scrapes,
    mails,
    setDisk: (percent) => void (diskPct = percent),
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      exporter.close();
    },
  };
}
