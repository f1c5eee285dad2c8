import { z } from 'zod';
import { silenceStateLabels } from '../../server/contract/routing';
import { listSilences, silencesQuery } from '../../src/api/silences';
import { defineCommand } from '../define-command';
import { describeMatchers } from './matcher-fields';

export const listSilencesCommand = defineCommand({
  id: 'silence.list',
  title: 'Silences',
  category: 'Silences',
  description: 'Open the Silences screen (Notifications › Silences) and list the active and pending silences, or the expired ones with --state expired.',
  input: z.object({ state: z.enum(['current', 'expired'], { error: 'state must be current or expired' }).default('current') }),
  args: [{ name: 'state', label: 'Which', kind: 'enum', optional: true, options: [{ value: 'current', label: 'Active and pending' }, { value: 'expired', label: 'Expired' }] }],
  permission: 'read',
  history: false,
  async run({ state }, ctx) {
    ctx.navigate(`/notifications/silences${state === 'expired' ? '?state=expired' : ''}`);
    const { result } = await listSilences(ctx.api, silencesQuery(state, 10));
    if (!result.count) return { message: state === 'expired' ? 'No expired silences.' : 'No active or pending silences.', data: result.data };
    const lines = result.data.map((s) => `- ${silenceStateLabels[s.state]}: \`${describeMatchers(s.matchers)}\` until ${new Date(s.endsAt).toLocaleString()} by ${s.createdBy.username} (“${s.comment}”)`);
    return { message: `${result.count} silence${result.count === 1 ? '' : 's'}:\n${lines.join('\n')}${result.count > 10 ? '\n- …' : ''}`, data: result.data };
  },
});
