import { describe, expect, it } from 'vitest';
import { classifyFault, FaultLog } from './faults';

const full = { total: 10, idle: 0, waiting: 3, max: 10 };

describe('classifyFault', () => {
  it('names a full disk, a read-only database or file system and an exhausted pool, through wrappers too', () => {
    expect(classifyFault(Object.assign(new Error('could not extend file "base/5/1": No space left on device'), { code: '53100' }))).toBe('disk_full');
    expect(classifyFault(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe('disk_full');
    expect(classifyFault(new Error('Failed query', { cause: Object.assign(new Error('cannot execute INSERT in a read-only transaction'), { code: '25006' }) }))).toBe('read_only');
    expect(classifyFault(Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS' }))).toBe('read_only');
    expect(classifyFault(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe('pool_exhausted');
    expect(classifyFault(new Error('timeout exceeded when trying to connect'), full)).toBe('pool_exhausted');
  });

  it('keeps an unreachable database apart from a full pool, and a bug apart from both', () => {
    expect(classifyFault(new Error('timeout exceeded when trying to connect'), { ...full, total: 0 })).toBe('database_unavailable');
    expect(classifyFault(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('database_unavailable');
    expect(classifyFault(Object.assign(new Error('syntax error'), { code: '42601' }))).toBeNull();
    expect(classifyFault(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBeNull();
  });
});

describe('FaultLog', () => {
  it('holds a fault met through errors while it recurs, and lets it go after holdMs', () => {
    let now = 1_000_000;
    const log = new FaultLog(10_000, () => now);
    expect(log.record(Object.assign(new Error('No space left on device'), { code: '53100' }))).toBe('disk_full');
    now += 8_000;
    log.record(Object.assign(new Error('No space left on device'), { code: '53100' }));
    now += 8_000;
    expect(log.current().map((f) => f.reason)).toEqual(['disk_full']);
    expect(log.current()[0]!.since).toBe(new Date(1_000_000).toISOString());
    now += 3_000;
    expect(log.current()).toEqual([]);
    // An outage is not a fault of its own (its 503 says database_unavailable) and is not held.
    expect(log.record(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('database_unavailable');
    expect(log.current()).toEqual([]);
  });
});
