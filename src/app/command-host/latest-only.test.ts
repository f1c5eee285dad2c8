import { describe, expect, it } from 'vitest';
import { LatestOnly } from './latest-only';

describe('LatestOnly (the palette asks the API one search at a time)', () => {
  it('runs one job at a time and, of what was asked meanwhile, only the newest', async () => {
    const ran: string[] = [];
    const release: (() => void)[] = [];
    const search = new LatestOnly<string>(async (text) => {
      ran.push(text);
      await new Promise<void>((r) => release.push(r));
    });
    search.ask('w');
    search.ask('we');
    search.ask('web');
    search.ask('web-0');
    expect(ran).toEqual(['w']);
    release.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toEqual(['w', 'web-0']);
    release.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    expect(ran).toEqual(['w', 'web-0']);
    // Idle again: the next ask runs at once, and a failing job does not stop the ones after it.
    const failing = new LatestOnly<number>(async (n) => {
      ran.push(String(n));
      if (n === 1) throw new Error('down');
    });
    failing.ask(1);
    failing.ask(2);
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setTimeout(r, 0));
    expect(ran.slice(2)).toEqual(['1', '2']);
  });
});
