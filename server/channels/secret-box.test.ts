import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './http';
import { redact } from './mask';
import { keyFromDataDir, keyFromText, SecretBox, SecretUnreadable } from './secret-box';

describe('channel secrets at rest', () => {
  it('seals with AES-256-GCM: opens with the same key and row, not with another key, row or a changed byte', () => {
    const box = new SecretBox(keyFromText('a passphrase of sixteen+ characters'));
    const sealed = box.seal('{"token":"s3cret"}', 'row-1');
    expect(sealed).not.toContain('s3cret');
    expect(box.seal('{"token":"s3cret"}', 'row-1')).not.toBe(sealed);
    expect(box.open(sealed, 'row-1')).toBe('{"token":"s3cret"}');
    expect(() => box.open(sealed, 'row-2')).toThrow(SecretUnreadable);
    expect(() => new SecretBox(keyFromText('another passphrase, also long')).open(sealed, 'row-1')).toThrow(SecretUnreadable);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3]!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.open([...parts.slice(0, 3), flipped.toString('base64url')].join('.'), 'row-1')).toThrow(SecretUnreadable);
    expect(() => box.open('garbage', 'row-1')).toThrow(SecretUnreadable);
  });

  it('OPSDECK_SECRET_KEY: hex and base64 keys are used as they are; a short passphrase is refused', () => {
    const hex = 'ab'.repeat(32);
    expect(keyFromText(hex)).toEqual(Buffer.from(hex, 'hex'));
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(keyFromText(b64)).toEqual(Buffer.alloc(32, 7));
    expect(keyFromText('same passphrase here!')).toEqual(keyFromText('same passphrase here!'));
    expect(() => keyFromText('short')).toThrow(/at least 16 characters/);
  });

  it('unset: a key is generated once into the data folder (mode 0600) and read back after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'opsdeck-key-'));
    try {
      const first = keyFromDataDir(join(dir, 'data'));
      expect(first.created).toBe(true);
      expect(statSync(join(dir, 'data', 'secret.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(join(dir, 'data', 'secret.key'), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
      const again = keyFromDataDir(join(dir, 'data'));
      expect(again).toEqual({ key: first.key, created: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Retry-After in seconds or as an HTTP date, bounded to an hour; redaction removes secrets and their URL-encoded form', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120);
    expect(parseRetryAfter('999999', now)).toBe(3600);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(redact('bot 1:a/b failed for 1%3Aa%2Fb', ['1:a/b'])).toBe('bot •••• failed for ••••');
  });
});
