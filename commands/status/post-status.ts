import { z } from 'zod';
import { MAX_POST_CHARS } from '../../server/contract/status-pages';
import { queryKeys } from '../../src/api/query-keys';
import { postStatusUpdate, resolveStatusIncident } from '../../src/api/status-pages';
import { defineCommand } from '../define-command';
import { pageArg, publicPath, resolveStatusPage } from './status-fields';

const markdown = z.string().trim().max(MAX_POST_CHARS, `the post is too long (at most ${MAX_POST_CHARS.toLocaleString('en')} characters)`);

export const postStatus = defineCommand({
  id: 'status.post',
  title: 'Post incident update',
  category: 'Status Pages',
  description: 'Post an incident update (markdown) on a status page: it adds to the open incident, or opens one titled by --title or its first line.',
  input: z.object({ page: z.string().trim().min(1, 'page is required'), body: markdown.min(1, 'body is required: the update to post'), title: z.string().trim().min(1).max(120).optional() }),
  args: [pageArg, { name: 'body', label: 'Update (markdown)', kind: 'text', positional: true, placeholder: 'We are investigating failed payments.' }, { name: 'title', label: 'Incident title', kind: 'text', optional: true }],
  permission: 'status.post',
  async run({ page, body, title }, ctx) {
    const found = await resolveStatusPage(ctx.api, page);
    const { result } = await postStatusUpdate(ctx.api, found._id, { body, ...(title ? { title } : {}) });
    await ctx.invalidate(queryKeys.statusPages.all);
    const what = result.opened ? 'Opened the incident' : 'Posted an update to';
    // The incident's title is our text about their text: quoted as code, never as markup.
    return { message: `${what} \`${result.incident.title}\` on **${found.title}** (\`${publicPath(found.slug)}\`).`, data: result };
  },
});

export const resolveStatus = defineCommand({
  id: 'status.resolve',
  title: 'Resolve incident',
  category: 'Status Pages',
  description: 'Close the open incident on a status page, with an optional last update (markdown).',
  input: z.object({ page: z.string().trim().min(1, 'page is required'), body: markdown.optional() }),
  args: [pageArg, { name: 'body', label: 'Last update (markdown)', kind: 'text', positional: true, optional: true, placeholder: 'This incident has been resolved.' }],
  permission: 'status.post',
  async run({ page, body }, ctx) {
    const found = await resolveStatusPage(ctx.api, page);
    const { result } = await resolveStatusIncident(ctx.api, found._id, body ? { body } : {});
    await ctx.invalidate(queryKeys.statusPages.all);
    return { message: `Resolved \`${result.incident.title}\` on **${found.title}** (\`${publicPath(found.slug)}\`).`, data: result };
  },
});
