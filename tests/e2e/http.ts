import { ADMIN } from './server-process';

/** A signed-in HTTP session against the running server, for arranging state around browser steps. */
export async function apiSession(baseURL: string, email = ADMIN.email, password = ADMIN.password) {
  const res = await fetch(`${baseURL}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'opsdeck' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`signin failed: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  async function call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const r = await fetch(`${baseURL}/api/${path}`, {
      method,
      headers: { cookie, 'x-requested-with': 'opsdeck', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
  }
  return {
    cookie,
    call,
    async findUserByEmail(email: string) {
      const r = await call<{ result: { data: { _id: string; username: string; email: string; role: string; phonenumber: string }[] } }>('POST', 'users/all', {
        pageNumber: 1,
        pageSize: 10,
        filter: { email: { eq: email } },
      });
      return r.body.result.data[0];
    },
    async createUser(u: { username: string; email: string; phonenumber?: string; password?: string; role?: string }) {
      return call('POST', 'users', { phonenumber: '+1 555 0100', password: 'pw-123456', role: 'user', ...u });
    },
    /** Which of `expected` ("command:source:outcome") the shared history of these commands does not hold yet. */
    async historyMissing(commands: string[], expected: string[]): Promise<string[]> {
      const r = await call<{ result: { data: { command: string; source: string; outcome: string }[] } }>('POST', 'command-history/all', {
        pageNumber: 1,
        pageSize: 100,
        filter: { command: { in: commands } },
      });
      const seen = new Set(r.body.result.data.map((h) => `${h.command}:${h.source}:${h.outcome}`));
      return expected.filter((k) => !seen.has(k));
    },
  };
}
