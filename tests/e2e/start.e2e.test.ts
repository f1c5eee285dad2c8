import { describe, expect, it } from 'vitest';
import { apiSession } from './http';
import { ADMIN, startServer } from './server-process';

// "Two commands": npm start prints how to sign in, the credentials work, SIGTERM stops it
// within 2 s, and what was written before the stop is there after the next start.
describe('npm start', () => {
  it('prints the sign-in credentials, serves UI and API, stops cleanly and keeps the data', async () => {
    const first = await startServer();
    try {
      expect(first.output()).toContain(`Sign in with ${ADMIN.email} / ${ADMIN.password}`);
      expect(first.output()).toMatch(/Opsdeck is running at http:\/\/127\.0\.0\.1:\d+/);
      const html = await (await fetch(`${first.url}/users`)).text();
      expect(html).toContain('<div id="root">');
      const api = await apiSession(first.url);
      expect((await api.createUser({ username: 'kept', email: 'kept@example.com' })).status).toBe(201);
    } finally {
      const { clean, ms } = await first.stop();
      expect(clean, first.output()).toBe(true);
      expect(ms).toBeLessThan(2000);
    }
    const second = await startServer({ dataDir: first.dataDir });
    try {
      // The admin exists now: the password is not printed again.
      expect(second.output()).not.toContain(ADMIN.password);
      const api = await apiSession(second.url);
      expect(await api.findUserByEmail('kept@example.com')).toMatchObject({ username: 'kept' });
    } finally {
      await second.stop();
    }
  });
});
