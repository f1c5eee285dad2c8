import { createCipheriv, createDecipheriv, createHmac, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDataDirPrivate } from '../db/private-dir';

/**
 * Channel secrets at rest (issue 15 §1, docs/decisions.md): AES-256-GCM from node:crypto, a
 * fresh 12-byte IV per value, the row's id as additional data (a sealed value copied onto another
 * row does not open there). Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The secret key must be 32 bytes');
  }

  seal(plain: string, boundTo: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(boundTo, 'utf8'));
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  /**
   * A key of its own for one purpose (signing page actions), derived from this one: HMAC-SHA256
   * of the purpose's name, so the sealing key itself never signs anything.
   */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`opsdeck:${purpose}`).digest();
  }

  /** Throws SecretUnreadable when the value was sealed with another key (or tampered with). */
  open(sealed: string, boundTo: string): string {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new SecretUnreadable();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(boundTo, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretUnreadable();
    }
  }
}

/** A box with a throw-away key: for workers built without one (tests); nothing it seals outlives the process. */
export const ephemeralBox = () => new SecretBox(randomBytes(32));

export class SecretUnreadable extends Error {
  constructor() {
    super("The channel's secrets cannot be read: OPSDECK_SECRET_KEY is not the key they were stored with. Remove the channel and add it again.");
  }
}

/**
 * OPSDECK_SECRET_KEY: 64 hex digits or base64 of 32 bytes is the key itself; any other text of
 * at least 16 characters is a passphrase stretched with scrypt (a fixed salt: the same
 * passphrase must give the same key on every replica).
 */
export function keyFromText(text: string): Buffer {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(t)) {
    const b = Buffer.from(t, 'base64');
    if (b.length === 32) return b;
  }
  if (t.length < 16) throw new Error('OPSDECK_SECRET_KEY must be 64 hex digits, 32 bytes in base64, or a passphrase of at least 16 characters');
  return scryptSync(t, 'opsdeck-channel-secrets-v1', 32);
}

export const KEY_FILE = 'secret.key';

/**
 * The key when OPSDECK_SECRET_KEY is unset: `<DATA_DIR>/secret.key`, generated on first use
 * (mode 0600). Right for one embedded instance; replicas sharing a PostgreSQL database must all
 * be given the same OPSDECK_SECRET_KEY instead (startup warns).
 */
export function keyFromDataDir(dataDir: string): { key: Buffer; created: boolean } {
  const file = join(dataDir, KEY_FILE);
  // Also the only use of DATA_DIR on PostgreSQL: the folder and the key are the owner's alone.
  makeDataDirPrivate(dataDir);
  if (existsSync(file)) return { key: keyFromText(readFileSync(file, 'utf8')), created: false };
  writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key: keyFromText(readFileSync(file, 'utf8')), created: true };
}
