import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PEER_SECRETS, startPeers, type Peers } from '../api/channel-peers';
import { gone, openBrowser, shown, signIn, type Browser } from './browser';
import { apiSession } from './http';

/**
 * Issue 15 §4: channels on the group drawer — add (secrets typed, shown masked), test (each
 * channel's answer, a wrong token named), remove (confirmed) — against the shared server, with
 * local stand-ins for Teams and Telegram on loopback.
 */
const baseURL = inject('baseURL');

describe('group channels on the drawer', () => {
  let b: Browser;
  let peers: Peers;
  let admin: Awaited<ReturnType<typeof apiSession>>;
  let groupId: string;
  beforeAll(async () => {
    peers = await startPeers();
    admin = await apiSession(baseURL);
    const g = await admin.call<{ result: { _id: string } }>('POST', 'notification-groups', { name: 'E2E Channels', emailEnabled: false });
    groupId = g.body.result._id;
    b = await openBrowser(baseURL);
    await signIn(b.page);
  });
  afterAll(async () => {
    await b?.close();
    await peers?.close();
  });

  it('adds Teams and Telegram targets, tests them (the wrong token is named), and removes one', async () => {
    const { page } = b;
    await page.goto(`${baseURL}/notification-groups/show/${groupId}`);
    const drawer = page.getByRole('dialog', { name: 'E2E Channels' });
    const section = drawer.getByRole('region', { name: 'Channels' });
    await shown(section.getByText('No channels besides email and Slack.'));

    const add = async (type: string, name: string, fields: [string, string][]) => {
      await section.getByRole('button', { name: 'Add channel' }).click();
      const form = section.getByRole('form', { name: 'Add channel to E2E Channels' });
      await form.getByRole('button', { name: /Channel type/ }).click();
      await page.getByRole('option', { name: type, exact: true }).click();
      await form.getByRole('textbox', { name: 'Channel name' }).fill(name);
      for (const [label, value] of fields) await form.getByLabel(label, { exact: true }).fill(value);
      await form.getByRole('button', { name: 'Add', exact: true }).click();
      await gone(form);
    };
    await add('Microsoft Teams', 'ops room', [['Workflows webhook URL', `${peers.url}/teams/workflows/e2e?sig=E2E-TEAMS-SIG`]]);
    await add('Telegram', 'tg', [
      ['Bot token', '42:AAwrong-token-for-the-e2e-test'],
      ['Chat id', PEER_SECRETS.chatId],
      ['Bot API server (optional, a self-hosted one)', `${peers.url}/tg`],
    ]);
    const targets = section.getByRole('list', { name: 'Channel targets' });
    await shown(targets.getByRole('listitem', { name: 'ops room' }));
    await shown(targets.getByRole('listitem', { name: 'tg' }));
    // Masked: the host only, never the signature in the URL or the token.
    expect(await targets.getByRole('listitem', { name: 'ops room' }).textContent()).toContain(`ops room: ${peers.url}/…`);
    expect(await section.textContent()).not.toContain('E2E-TEAMS-SIG');
    expect(await section.textContent()).not.toContain('AAwrong-token');

    // One channel, then the whole group: Telegram answers with its reason.
    await targets.getByRole('button', { name: 'Test ops room' }).click();
    const results = section.getByRole('status', { name: 'Test results' });
    await shown(results.getByText('1 of 1 channel accepted it', { exact: false }));
    expect(peers.calls.filter((c) => c.peer === 'teams')).toHaveLength(1);
    await section.getByRole('button', { name: 'Send test notification' }).click();
    await shown(results.getByText('1 of 2 channels accepted it', { exact: false }));
    await shown(results.getByText('Telegram answered HTTP 401 (the bot token was refused)', { exact: false }));

    // Edit in place: the wrong bot token replaced; the chat id shown as stored; the secret field
    // starts empty (secrets never reach the browser) and the rest is kept.
    await targets.getByRole('button', { name: 'Edit tg' }).click();
    const edit = section.getByRole('form', { name: 'Edit channel tg' });
    expect(await edit.getByLabel('Chat id', { exact: true }).inputValue()).toBe(PEER_SECRETS.chatId);
    expect(await edit.getByLabel('Bot token', { exact: true }).inputValue()).toBe('');
    expect(await edit.getByLabel('Bot token', { exact: true }).getAttribute('placeholder')).toMatch(/^••••.{4} \(kept if left empty\)$/);
    await edit.getByLabel('Bot token', { exact: true }).fill(PEER_SECRETS.botToken);
    await edit.getByRole('button', { name: 'Save' }).click();
    await gone(edit);
    await section.getByRole('button', { name: 'Send test notification' }).click();
    await shown(results.getByText('2 of 2 channels accepted it', { exact: false }));
    // A rename leaves the webhook URL (a secret) as it was.
    await targets.getByRole('button', { name: 'Edit ops room' }).click();
    const rename = section.getByRole('form', { name: 'Edit channel ops room' });
    await rename.getByRole('textbox', { name: 'Channel name' }).fill('ops room eu');
    await rename.getByRole('button', { name: 'Save' }).click();
    await gone(rename);
    expect(await targets.getByRole('listitem', { name: 'ops room eu' }).textContent()).toContain(`ops room eu: ${peers.url}/…`);
    await targets.getByRole('button', { name: 'Test ops room eu' }).click();
    await shown(results.getByText('1 of 1 channel accepted it', { exact: false }));
    expect(peers.calls.filter((c) => c.peer === 'teams' && c.path === '/teams/workflows/e2e?sig=E2E-TEAMS-SIG')).toHaveLength(4);
    expect(await section.textContent()).not.toContain(PEER_SECRETS.botToken);
    // A refused value is named beside the form, and nothing changes.
    await targets.getByRole('button', { name: 'Edit tg' }).click();
    const bad = section.getByRole('form', { name: 'Edit channel tg' });
    await bad.getByLabel('Chat id', { exact: true }).fill('general');
    await bad.getByRole('button', { name: 'Save' }).click();
    await shown(bad.getByRole('alert').getByText('chatId: must be a chat id', { exact: false }));
    await bad.getByRole('button', { name: 'Cancel' }).click();
    await gone(bad);

    // Remove, confirmed.
    await targets.getByRole('button', { name: 'Remove tg' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove Channel' });
    await shown(confirm);
    await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
    await gone(targets.getByRole('listitem', { name: 'tg' }));
    const left = await admin.call<{ result: { name: string }[] }>('GET', `notification-groups/${groupId}/channels`);
    expect(left.body.result.map((c) => c.name)).toEqual(['ops room eu']);
    // Every click was a command in the shared history; the test a channel failed is recorded as failed.
    expect(
      await admin.historyMissing(['group.add-channel', 'group.test', 'group.edit-channel', 'group.remove-channel'], ['group.add-channel:ui:ok', 'group.test:ui:ok', 'group.test:ui:error', 'group.edit-channel:ui:ok', 'group.edit-channel:ui:error', 'group.remove-channel:ui:ok']),
    ).toEqual([]);
  });
});
