import { z } from 'zod';
import { statusGroupInputSchema } from '../../server/contract/status-pages';
import { queryKeys } from '../../src/api/query-keys';
import { createStatusPage as createCall } from '../../src/api/status-pages';
import { defineCommand } from '../define-command';
import { itemsArg, parseItems, publicPath } from './status-fields';

export const createStatusPage = defineCommand({
  id: 'status.create',
  title: 'Create status page',
  category: 'Status Pages',
  description: 'Publish a read-only status page at /status/<slug>, without sign-in: --items "Core / server web-01 = Database; check Shop front = Shop" (display names only).',
  input: z.object({
    slug: z.string().trim().min(1, 'slug is required'),
    title: z.string().trim().min(1, 'title is required'),
    description: z.string().optional(),
    items: z.string().optional(),
    /** The screen's structured groups (the command line uses --items). */
    groups: z.array(statusGroupInputSchema).optional(),
  }),
  args: [
    { name: 'slug', label: 'Slug', kind: 'text', positional: true, placeholder: 'e.g. public-api' },
    { name: 'title', label: 'Title', kind: 'text', placeholder: 'e.g. Acme status' },
    { name: 'description', label: 'Description', kind: 'text', optional: true },
    itemsArg,
  ],
  permission: 'status.write',
  inverse: (_input, result) => {
    const id = (result.data as { _id?: string } | undefined)?._id;
    return id ? { id: 'status.delete', input: { page: id } } : null;
  },
  async run({ slug, title, description, items, groups: given }, ctx) {
    const groups = items !== undefined ? await parseItems(ctx.api, items) : given;
    const { result } = await createCall(ctx.api, { slug, title, ...(description !== undefined ? { description } : {}), ...(groups ? { groups } : {}) });
    await ctx.invalidate(queryKeys.statusPages.all);
    const n = result.groups.reduce((sum, g) => sum + g.items.length, 0);
    return { message: `Created status page **${result.title}** at \`${publicPath(result.slug)}\` with ${n} item${n === 1 ? '' : 's'}.`, data: result };
  },
});
