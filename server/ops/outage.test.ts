import { describe, expect, it } from 'vitest';
import { OutageNotice } from './outage';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function logger() {
  const lines: string[] = [];
  return { lines, log: { warn: (_: object, msg: string) => lines.push(`warn ${msg}`), error: (_: object, msg: string) => lines.push(`error ${msg}`) } };
}

describe('OutageNotice', () => {
  it('logs the first failure of an outage, a reminder every five minutes and the recovery, not every attempt', () => {
    const { lines, log } = logger();
    const notice = new OutageNotice(log, 'Alert delivery', 1000);
    let t = 0;
    for (; t < 600_000; t += 1000) expect(notice.failed(refused, t)).toBe(true);
    notice.ok(t);
    expect(lines).toEqual([
      'error Alert delivery: the database is unavailable; retrying with back-off',
      'error Alert delivery still fails',
      'warn Alert delivery works again',
    ]);
    expect(notice.failing).toBe(false);
  });

  it('backs off from the base interval, doubling up to 30 s, and starts over after recovery', () => {
    const notice = new OutageNotice(logger().log, 'Collector', 500);
    expect(notice.backoffMs()).toBe(500);
    const waits = [];
    for (let i = 0; i < 9; i++) {
      notice.failed(refused, i);
      waits.push(notice.backoffMs());
    }
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    notice.ok();
    expect(notice.backoffMs()).toBe(500);
  });

  it('tells a database outage from other errors', () => {
    const { lines, log } = logger();
    const notice = new OutageNotice(log, 'Evaluation');
    expect(notice.failed(new Error('column "x" does not exist'))).toBe(false);
    expect(notice.failed(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(notice.failed(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(lines[0]).toBe('error Evaluation failed');
  });
});
