import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { decodeInstallToken, installCommand, isHostHeader, psQuote } from '../../server/contract/agent';
import { backends, startTestApp, type TestApp } from './harness';

/** Host header values a caller could send to poison a token or the command built from it. */
const HOSTILE = ["x'+$(whoami)+'", 'evil.example/path', 'a b', 'evil.example:99999', 'evil.example:0', 'h"ost', "h'ost", '$(id)', '`id`', 'x;rm -rf /', '[::1', 'user@evil.example', 'evil.example:80:81', '', 'evil\u2019.example', '-.example'];

/** Issue 11 §5: install tokens and commands from PUBLIC_URL, or from a Host that is a plain host[:port]. */
describe.each(await backends())('Host header and install commands on $name', (backend) => {
  let t: TestApp;
  /** The same database served with PUBLIC_URL set. */
  let pub: FastifyInstance;
  let admin: string;
  let serverId = '';
  const create = async (app: FastifyInstance, host: string) => {
    const res = await app.inject({ method: 'POST', url: '/api/cli/create_api_key', headers: { host, cookie: admin, 'x-requested-with': 'opsdeck', 'content-type': 'application/json' }, payload: JSON.stringify({ privilages: ['READ', 'UPDATE'], serverId }) });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    serverId = (await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'installer-host', ipaddress: '10.77.0.1', operating_system: 'windows' } })).body.result._id;
    pub = await buildApp(testConfig({ publicUrl: 'https://ops.example.com' }), { database: t.database });
    await pub.ready();
  });
  afterAll(async () => {
    await pub?.close();
    await t?.close();
  });

  // (An empty Host cannot be sent through inject, which fills one in; isHostHeader refuses it below.)
  it.each(HOSTILE.filter(Boolean))('without PUBLIC_URL a Host of %j is a 400 and no key is made', async (host) => {
    const before = await t.count('api_keys');
    const res = await create(t.app, host);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.field).toBe('host');
    expect(res.body.message).toMatch(/is not a host\[:port\]; set PUBLIC_URL/);
    expect(await t.count('api_keys')).toBe(before);
  });

  it('a plain host, IPv4 or bracketed IPv6 with a port makes the token', async () => {
    for (const host of ['console.example:8080', '10.1.2.3:3000', '[::1]:3000', 'localhost', 'ops-1.internal']) {
      const res = await create(t.app, host);
      expect(res.status, host).toBe(201);
      expect(decodeInstallToken(res.body.data.token)?.apiUrl).toBe(`http://${host}`);
    }
  });

  it('with PUBLIC_URL the token uses it whatever the Host says', async () => {
    for (const host of ["x'+$(whoami)+'", 'evil.example']) {
      const res = await create(pub, host);
      expect(res.status, host).toBe(201);
      expect(res.body.data.apiUrl).toBe('https://ops.example.com');
      expect(decodeInstallToken(res.body.data.token)?.apiUrl).toBe('https://ops.example.com');
    }
  });
});

describe('install commands', () => {
  it('quote by PowerShell’s rules: a single quote (straight or typographic) is doubled, nothing else is special', () => {
    expect(psQuote("x'+$(whoami)+'")).toBe("'x''+$(whoami)+'''");
    expect(psQuote('a\u2019b')).toBe("'a\u2019\u2019b'");
    const cmd = installCommand('windows', "http://x'+$(whoami)+'", 'tok');
    expect(cmd).toBe("& ([scriptblock]::Create((Invoke-RestMethod 'http://x''+$(whoami)+''/cli/0.0.2/sb-cli.ps1'))) install -Token 'tok'");
    // Read back as PowerShell reads a single-quoted string, the URL is exactly what was given.
    const [, url] = /Invoke-RestMethod '((?:[^']|'')*)'/.exec(cmd)!;
    expect(url!.replace(/''/g, "'")).toBe("http://x'+$(whoami)+'/cli/0.0.2/sb-cli.ps1");
    expect(installCommand('linux', "http://x'y", "t'k")).toBe("curl -fsSL 'http://x'\\''y/cli/0.0.2/sb-cli' | sudo sh -s -- install 't'\\''k'");
  });

  it('knows a host[:port] from anything else', () => {
    for (const ok of ['a', 'a.b.c', 'a-b.example:1', '10.0.0.1:65535', '[::1]', '[fe80::1]:80']) expect(isHostHeader(ok), ok).toBe(true);
    for (const bad of HOSTILE) expect(isHostHeader(bad), bad).toBe(false);
  });
});
