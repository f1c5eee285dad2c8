import { describe, expect, it } from 'vitest';
import { networkReason } from './http';

describe('networkReason', () => {
  it('says a request that could not be made in fixed words, never the error text (it may quote a header value)', () => {
    const byteString = new TypeError('Cannot convert argument to a ByteString because the character at index 14 has a value of 8364 which is greater than 255.');
    expect(networkReason(byteString, 10_000)).toBe('the request could not be made');
    expect(networkReason(Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) }), 10_000)).toBe('the connection was refused (ECONNREFUSED)');
  });
});
