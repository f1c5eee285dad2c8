import { channelLabels } from '../contract/channels';
import { maskUrl } from './mask';
import { postJson } from './http';
import { descriptionText, factRows, headline, isFiring, summaryLine } from './text';
import type { ChannelMessage, ChannelPlugin } from './types';

const run = (text: string, style: Record<string, unknown> = {}) => ({ type: 'TextRun', text, ...style });
const para = (...inlines: unknown[]) => ({ type: 'RichTextBlock', inlines });

/**
 * A Teams Workflows webhook ("Post to a channel when a webhook request is received") takes a
 * message whose attachment is an Adaptive Card. Everything a host controls goes in TextRuns,
 * which Teams does not read as markdown (a TextBlock would).
 */
export function teamsPayload(m: ChannelMessage) {
  const color = m.test ? 'Accent' : m.transition === 'resolved' ? 'Good' : isFiring(m.transition) ? (m.alert.severity === 'critical' ? 'Attention' : 'Warning') : 'Accent';
  const body: unknown[] = [
    para(run(headline(m), { weight: 'Bolder', size: 'Medium', color })),
    para(run(summaryLine(m))),
  ];
  if (m.extra.reason) body.push(para(run(m.extra.reason, { italic: true })));
  if (!m.test) {
    body.push(...factRows(m).map(([k, v]) => para(run(`${k}: `, { weight: 'Bolder' }), run(v))));
    const description = descriptionText(m);
    if (description) body.push(...description.split('\n\n').map((p) => para(run(p))));
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: m.test ? 'Open Opsdeck' : 'View alert', url: m.test ? m.publicUrl : m.link }],
          msteams: { width: 'Full' },
        },
      },
    ],
  };
}

export const teamsChannel: ChannelPlugin<'teams'> = {
  type: 'teams',
  label: channelLabels.teams,
  noun: 'Microsoft Teams message',
  sends: (t) => t !== 'acknowledged',
  target: (c) => maskUrl(c.secrets.url),
  endpoints: (c) => [{ field: 'secrets.url', url: c.secrets.url }],
  async send(c, m, { timeoutMs, fetch }) {
    const res = await postJson('Microsoft Teams', c.secrets.url, teamsPayload(m), { timeoutMs, fetch });
    return { status: res.status };
  },
};
