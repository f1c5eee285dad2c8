import { z } from 'zod';
import { previewSilence } from '../../src/api/silences';
import { defineCommand } from '../define-command';
import { describeMatchers, matchersArg, matchersSchema, previewText } from './matcher-fields';

export const previewSilenceCommand = defineCommand({
  id: 'silence.preview',
  title: 'Preview silence matchers',
  category: 'Silences',
  description: 'What some matchers would silence now: the open alerts and servers they match, and a warning when that is nothing. Creates nothing.',
  input: z.object({ matchers: matchersSchema }),
  args: [matchersArg],
  permission: 'read',
  history: false,
  async run({ matchers }, ctx) {
    const p = (await previewSilence(ctx.api, { matchers })).result;
    const alerts = p.alerts.map((a) => `- ${a.alertname.replace(/_/g, ' ')} on ${a.hostname}`).join('\n');
    return { message: `\`${describeMatchers(matchers)}\` ${previewText(p)}.${alerts ? `\n${alerts}${p.alertCount > p.alerts.length ? '\n- …' : ''}` : ''}`, data: p };
  },
});
