import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed page actions (issue 27 §4, docs/oncall.md "Acknowledge from the page"): the credential
 * inside an acknowledge or resolve link (or a push notification's button) that lets the person a
 * notification was for act on its alert without signing in.
 *
 * A token binds the alert, the action, the person, the channel it was sent through and an expiry,
 * with a random id that the one-use store keys on; it is signed with HMAC-SHA256 by a key derived
 * from OPSDECK_SECRET_KEY (or DATA_DIR/secret.key). Layout, base64url of 63 bytes (84 characters):
 * version (1) · alert id (16) · user id (16) · action (1) · channel (1) · expiry, Unix seconds (4)
 * · token id (8) · the first 16 bytes of the HMAC over everything before it.
 */

export const pageActions = ['ack', 'resolve'] as const;
export type PageAction = (typeof pageActions)[number];
/** Where an action came from: the notification it was in. */
export const pageActionVias = ['email', 'ntfy', 'slack', 'telegram'] as const;
export type PageActionVia = (typeof pageActionVias)[number];

export interface PageActionClaims {
  /** The token's own id (16 hex digits): a used one is stored under it. Empty for a provider's button press (Slack, Telegram), which has no token. */
  id: string;
  alertId: string;
  userId: string;
  action: PageAction;
  via: PageActionVia;
  expiresAt: Date;
}

export type Verified = { ok: true; claims: PageActionClaims } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'expired'; claims: PageActionClaims };

/** How long a link in a notification works: long enough for a page read in the morning. */
export const PAGE_ACTION_TTL_S = 24 * 3600;

const VERSION = 1;
const PAYLOAD = 1 + 16 + 16 + 1 + 1 + 4 + 8;
const MAC = 16;

const uuidBytes = (id: string): Buffer => {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new Error(`not a uuid: ${id}`);
  return Buffer.from(hex, 'hex');
};
const uuidOf = (b: Buffer): string => {
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export class PageActionSigner {
  /** `key`: the secret box's key for this purpose (SecretBox.derive('page-actions')). */
  constructor(private readonly key: Buffer) {}

  private mac(payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(payload).digest().subarray(0, MAC);
  }

  sign(c: Omit<PageActionClaims, 'id' | 'expiresAt'> & { expiresAt: Date; id?: string }): string {
    const payload = Buffer.alloc(PAYLOAD);
    let o = payload.writeUInt8(VERSION, 0);
    o += uuidBytes(c.alertId).copy(payload, o);
    o += uuidBytes(c.userId).copy(payload, o);
    o = payload.writeUInt8(pageActions.indexOf(c.action), o);
    o = payload.writeUInt8(pageActionVias.indexOf(c.via), o);
    o = payload.writeUInt32BE(Math.floor(c.expiresAt.getTime() / 1000), o);
    (c.id ? Buffer.from(c.id, 'hex') : randomBytes(8)).copy(payload, o);
    return Buffer.concat([payload, this.mac(payload)]).toString('base64url');
  }

  /** The claims of a token this console signed, if it did; an expired one says so with its claims. */
  verify(token: string, now: number): Verified {
    if (!/^[A-Za-z0-9_-]{84}$/.test(token)) return { ok: false, reason: 'invalid' };
    const raw = Buffer.from(token, 'base64url');
    if (raw.length !== PAYLOAD + MAC) return { ok: false, reason: 'invalid' };
    const payload = raw.subarray(0, PAYLOAD);
    if (!timingSafeEqual(raw.subarray(PAYLOAD), this.mac(payload)) || payload.readUInt8(0) !== VERSION) return { ok: false, reason: 'invalid' };
    const action = pageActions[payload.readUInt8(33)];
    const via = pageActionVias[payload.readUInt8(34)];
    if (!action || !via) return { ok: false, reason: 'invalid' };
    const claims: PageActionClaims = {
      alertId: uuidOf(payload.subarray(1, 17)),
      userId: uuidOf(payload.subarray(17, 33)),
      action,
      via,
      expiresAt: new Date(payload.readUInt32BE(35) * 1000),
      id: payload.subarray(39, 47).toString('hex'),
    };
    return claims.expiresAt.getTime() <= now ? { ok: false, reason: 'expired', claims } : { ok: true, claims };
  }
}
