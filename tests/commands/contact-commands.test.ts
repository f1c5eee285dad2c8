import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCommands, createAppRegistry } from '../../commands';
import { completeCommandLine } from '../../commands/complete-command-line';
import { CommandError } from '../../commands/registry';
import { testConfig } from '../../server/config';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { completionValues } from '../../src/app/command-host/entities';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { PEER_SECRETS, startPeers, type Peers } from '../api/channel-peers';
import { startSmtpSink, type SmtpSink } from '../api/smtp-sink';
import { appContext, injectApi } from './app-context';

/**
 * Issue 27 §2: contact.add, contact.test, contact.verify, contact.remove and contact.list against
 * the real API, real SMTP and an ntfy stand-in: a method is added, its code arrives, the code
 * verifies it; Tab completes one's own methods by label; History names them by label, never by
 * id, and never holds a secret; an admin manages anyone's with --user.
 */
let t: TestApp;
let smtp: SmtpSink;
let peers: Peers;
const registry = createAppRegistry();
type Who = { _id: string; username: string; role: 'admin' | 'user'; cookie: string };
let admin: Who;
let ann: Who;
let bob: Who;

beforeAll(async () => {
  [smtp, peers] = await Promise.all([startSmtpSink(), startPeers()]);
  const [pglite] = await backends();
  t = await startTestApp(pglite!, { delivery: { ...testConfig().delivery, smtpUrl: smtp.url, channelTimeoutMs: 3000 } });
  const person = async (role: 'admin' | 'user', username: string): Promise<Who> => {
    const u = await t.addUser({ role, username, email: `${username}@example.com` });
    return { _id: u._id, username, role, cookie: await t.signIn(u.email, u.password) };
  };
  [admin, ann, bob] = [await person('admin', 'cm-admin'), await person('user', 'cm-ann'), await person('user', 'cm-bob')];
}, 120_000);
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp?.close(), peers?.close()]);
});

async function line(text: string, who: Who = ann) {
  const ctx = appContext(t, registry, who, 'cmdline', () => true);
  const { id, input } = parseCommandLine(text, registry.get);
  return registry.dispatch(id, input, { source: 'cmdline', ctx });
}
const fails = (text: string, who: Who = ann) => line(text, who).then(
  () => {
    throw new Error(`${text} did not fail`);
  },
  (err: unknown) => {
    expect(err).toBeInstanceOf(CommandError);
    return (err as CommandError).message;
  },
);
const lastCode = () => /\b(\d{6})\b/.exec(smtp.mails[smtp.mails.length - 1]!.text)![1]!;
async function history(who: Who): Promise<CommandHistoryEntry[]> {
  const res = await t.call('POST', '/api/command-history/all', { cookie: admin.cookie, body: { pageNumber: 1, pageSize: 100, filter: { username: who.username } } });
  return res.body.result.data;
}

describe('contact commands', () => {
  it('add → test → the code arrives → verify: verified; a wrong code says so and changes nothing', async () => {
    const added = await line('contact.add email "Work mail" --to cm-ann@example.com');
    expect(added.message).toBe('Added Email contact method **Work mail** to your account (Email\\: cm\\-ann\\@example\\.com), not verified yet: send it a code with `contact.test "Work mail"`.');

    const sent = await line('contact.test "work mail"');
    expect(sent.message).toBe('Sent a test message to **Work mail** (Email\\: cm\\-ann\\@example\\.com). Enter its code with `contact.verify "Work mail" <code>` within 15 minutes.');
    expect(smtp.mails[smtp.mails.length - 1]!.to).toEqual(['cm-ann@example.com']);
    const code = lastCode();

    const wrong = code === '000000' ? '000001' : '000000';
    expect(await fails(`contact.verify "Work mail" ${wrong}`)).toBe('That is not the code sent to "Work mail" (4 tries left)');
    expect((await line('contact.list')).message).toContain('| Work mail | Email | Email: cm-ann@example.com | not verified |');

    expect((await line(`contact.verify "Work mail" ${code}`)).message).toBe('**Work mail** is verified.');
    expect((await line('contact.list')).message).toContain('| Work mail | Email | Email: cm-ann@example.com | verified |');
    expect(await fails('contact.test Nothing')).toBe('cm-ann has no contact method "Nothing" (there are: Work mail)');
  });

  it('a refused test fails the run with the reason; a bad argument is named as typed', async () => {
    await line(`contact.add ntfy Phone --key ${PEER_SECRETS.ntfyTopic} --token wrong-token-0123456789 --endpoint ${peers.url}/ntfy`);
    expect(await fails('contact.test Phone')).toBe('The test message to **Phone** failed: `ntfy answered HTTP 401 (the credentials were refused)`');
    expect(await fails('contact.add sms Mobile --to 555-0100')).toBe('to: must be an international number in E.164 form, such as +15550100123');
    expect(await fails('contact.add pushover Push --key short')).toBe('key: must be the 30 letters and digits of your Pushover user key');
    expect(await fails('contact.add email "work MAIL" --to x@example.com')).toBe('You already have a contact method labelled "work MAIL"');
  });

  it('Tab completes one’s own methods by label', async () => {
    const api = injectApi(t, ann.cookie);
    const valuesFor = (arg: Parameters<typeof completionValues>[2], prefix: string) => completionValues(api, 'user', arg, prefix);
    expect(await completeCommandLine('contact.verify Wo', allCommands, valuesFor)).toMatchObject({ line: 'contact.verify "Work mail" ' });
    expect((await completeCommandLine('contact.remove ', allCommands, valuesFor)).candidates).toEqual(['Work mail', 'Phone']);
    // Bob has none of Ann's.
    const bobs = (arg: Parameters<typeof completionValues>[2], prefix: string) => completionValues(injectApi(t, bob.cookie), 'user', arg, prefix);
    expect((await completeCommandLine('contact.test ', allCommands, bobs)).candidates).toEqual([]);
  });

  it('History names methods by label, never by id, and holds no secret', async () => {
    const rows = await history(ann);
    const lines = rows.filter((r) => r.command.startsWith('contact.')).map((r) => r.commandLine);
    expect(lines).toContain('contact.test --method "work mail"');
    // The verification code (the right one and the wrong one) is no part of the record.
    expect(lines.filter((l) => l?.startsWith('contact.verify'))).toContain('contact.verify --method "Work mail"');
    const all = JSON.stringify(rows);
    const codesSent = smtp.mails.flatMap((m) => /\b(\d{6})\b/.exec(m.text)?.[1] ?? []);
    expect(codesSent.length).toBeGreaterThan(0);
    for (const code of codesSent) expect(all).not.toContain(code);
    expect(all).not.toMatch(/--code/);
    expect(all).not.toContain(PEER_SECRETS.ntfyTopic);
    expect(all).not.toContain('wrong-token-0123456789');
    const ids = (await t.call('GET', `/api/users/${ann._id}/contact-methods`, { cookie: ann.cookie })).body.result.data.map((m: { _id: string }) => m._id) as string[];
    for (const l of lines) for (const id of ids) expect(l).not.toContain(id);
    // The server's record of the test names the method by its label.
    const test = rows.find((r) => r.command === 'contact.test' && r.outcome === 'ok')!;
    expect(test.targets).toMatchObject([{ kind: 'user', name: 'cm-ann' }, { kind: 'contact-method', name: 'Work mail' }]);
  });

  it("another person's methods: refused to a user, managed by an admin with --user", async () => {
    expect(await fails('contact.list --user cm-ann', bob)).toMatch(/^No user matches "cm-ann"|Only/);
    expect((await line('contact.list --user cm-ann', admin)).message).toContain('| Work mail |');
    expect((await line('contact.add sms "Desk phone" --to +15550100444 --user cm-ann', admin)).message).toBe(
      'Added SMS contact method **Desk phone** to cm\\-ann’s account (SMS\\: \\+155…0444), not verified yet: send it a code with `contact.test "Desk phone"`.',
    );
    expect((await line('contact.remove "desk phone" --user cm-ann', admin)).message).toBe('Removed contact method **Desk phone**.');
    expect((await line('contact.remove Phone')).message).toBe('Removed contact method **Phone**.');
    expect((await line('contact.list')).data).toHaveLength(1);
  });

  it('notification rules: added and removed by method and delay, listed in order, named so in History', async () => {
    expect((await line('contact.rules')).message).toContain('No notification rules set on your account: each verified contact method is paged at once.');
    expect((await line('contact.rule-add "work mail" --after 5')).message).toBe('Added to your notification rules: **Work mail** after 5 min.');
    expect((await line('contact.rule-add "Work mail"')).message).toBe('Added to your notification rules: **Work mail** at once.');
    expect((await line('contact.rules')).message).toBe(['| When | Method | Kind | State |', '| --- | --- | --- | --- |', '| at once | Work mail | Email | verified |', '| after 5 min | Work mail | Email | verified |'].join('\n'));

    await line('contact.add sms Unchecked --to +15550100555');
    expect(await fails('contact.rule-add Unchecked')).toBe('method: "Unchecked" is not verified yet: send it a test message and enter its code first');
    expect(await fails('contact.rule-add "Work mail" --after -2')).toBe('Add notification rule: After how many minutes unacknowledged (0 or empty: at once) must be 0 (at once) or more.');
    expect(await fails('contact.rule-remove "Work mail"')).toBe('"Work mail" is paged at once and after 5 min: say which with --after');
    expect(await fails('contact.rule-remove "Work mail" --after 9')).toBe('cm-ann has no notification rule for "Work mail" after 9 min (there are: Work mail at once, Work mail after 5 min)');
    expect((await line('contact.rule-remove "Work mail" --after 5')).message).toBe('Removed from your notification rules: **Work mail** after 5 min.');

    // Tab completes the method by label.
    const api = injectApi(t, ann.cookie);
    const valuesFor = (arg: Parameters<typeof completionValues>[2], prefix: string) => completionValues(api, 'user', arg, prefix);
    expect(await completeCommandLine('contact.rule-add Wo', allCommands, valuesFor)).toMatchObject({ line: 'contact.rule-add "Work mail" ' });

    // An admin sets someone else's.
    expect((await line('contact.rule-add "Work mail" --after 15 --user cm-ann', admin)).message).toBe('Added to cm\\-ann’s notification rules: **Work mail** after 15 min.');
    expect((await line('contact.rules --user cm-ann', admin)).message).toContain('| after 15 min | Work mail | Email | verified |');
    expect(await fails('contact.rule-add "Work mail" --user cm-ann', bob)).toMatch(/^No user matches "cm-ann"|Only/);

    const lines = (await history(ann)).filter((r) => r.command.startsWith('contact.rule-')).map((r) => r.commandLine);
    expect(lines).toContain('contact.rule-add --method "work mail" --after 5');
    expect(lines).toContain('contact.rule-remove --method "Work mail" --after 5');
    const rec = (await history(ann)).find((r) => r.command === 'contact.rule-remove' && r.outcome === 'ok')!;
    expect(rec.targets).toMatchObject([{ kind: 'user', name: 'cm-ann' }, { kind: 'notification-rule', name: 'Work mail after 5 min' }]);
  });
});
