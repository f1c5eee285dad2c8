import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SinkMail {
  at: number;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps every message it accepts (no TLS, no auth). */
export interface SmtpSink {
  url: string;
  port: number;
  mails: SinkMail[];
  /** Recipients whose next RCPT TO is refused with 550 (once each): a partly refused message. */
  refuseOnce: Set<string>;
  /** Messages answered 451 (see `accept`). */
  refused: () => number;
  close: () => Promise<void>;
}

export interface SmtpSinkOptions {
  /** A fixed port (a relay that comes back where it was); default: any free one. */
  port?: number;
  /** Take this many messages, then answer 451 "try again later" (a relay refusing for a while). */
  accept?: number;
}

/** The message as a mail client reads it (mailparser): subject, the text part and the HTML part. */
async function parse(raw: Buffer, to: string[]): Promise<SinkMail> {
  const parsed = await simpleParser(raw);
  return { at: Date.now(), to, subject: parsed.subject ?? '', text: (parsed.text ?? '').replace(/\r\n/g, '\n'), html: typeof parsed.html === 'string' ? parsed.html : '' };
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const mails: SinkMail[] = [];
  const refuseOnce = new Set<string>();
  let refused = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuseOnce.delete(address.address)) return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (options.accept !== undefined && mails.length >= options.accept) {
          refused += 1;
          return callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        }
        parse(Buffer.concat(chunks), session.envelope.rcptTo.map((r) => r.address)).then((mail) => {
          mails.push(mail);
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, port, mails, refuseOnce, refused: () => refused, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
