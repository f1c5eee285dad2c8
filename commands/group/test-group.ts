import { z } from 'zod';
import { codeSpan, escapeMarkdown } from '../../server/contract/alert-text';
import { ApiError } from '../../src/api/client';
import { testGroup as sendTest } from '../../src/api/notification-groups';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveGroup } from './resolve-group';

export const testGroup = defineCommand({
  id: 'group.test',
  title: 'Send test notification',
  category: 'Notification Groups',
  description: 'Send a test message on every channel of a group (email and Slack when on, and each channel target), or on the one named; reports each channel’s answer.',
  input: z.object({ group: z.string().trim().min(1, 'group is required'), channel: z.string().trim().optional() }).strict(),
  args: [
    { name: 'group', label: 'Notification group', kind: 'entity', entity: 'group', positional: true },
    { name: 'channel', label: 'Only this channel (name, email or slack)', kind: 'text', optional: true },
  ],
  permission: 'groups.write',
  async run({ group, channel }, ctx) {
    const found = await resolveGroup(ctx.api, group);
    let results;
    try {
      results = (await sendTest(ctx.api, found._id, channel || undefined)).result;
    } catch (err) {
      if (err instanceof ApiError) throw new CommandError(err.message);
      throw err;
    }
    if (!results.length) throw new CommandError(`**${escapeMarkdown(found.name)}** has no channel to test: turn on email or Slack, or add a channel with \`group.add-channel\`.`);
    // Peers' answers are others' text: escaped, never markup.
    const lines = results.map((r) =>
      r.ok ? `- ✓ ${escapeMarkdown(r.name)}${r.status ? ` (HTTP ${r.status})` : ''}` : `- ✗ ${escapeMarkdown(r.name)}: ${codeSpan(r.error ?? 'failed')}`,
    );
    const ok = results.filter((r) => r.ok).length;
    const message = `Test notification from **${escapeMarkdown(found.name)}**: ${ok} of ${results.length} channel${results.length === 1 ? '' : 's'} accepted it.\n\n${lines.join('\n')}`;
    // A channel that failed makes the run fail, with every channel's answer: the history shows it.
    if (ok < results.length) throw new CommandError(message);
    return { message, data: results };
  },
});
