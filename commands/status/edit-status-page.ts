import { z } from 'zod';
import { statusGroupInputSchema } from '../../server/contract/status-pages';
import type { UpdateStatusPage } from '../../server/contract/status-pages';
import { queryKeys } from '../../src/api/query-keys';
import { updateStatusPage } from '../../src/api/status-pages';
import { defineCommand } from '../define-command';
import { itemsArg, pageArg, parseItems, publicPath, resolveStatusPage } from './status-fields';

export const editStatusPage = defineCommand({
  id: 'status.edit',
  title: 'Edit status page',
  category: 'Status Pages',
  description: 'Change a status page’s slug, title, description or items (--items replaces them all); with no change given, open its edit form.',
  input: z.object({
    page: z.string().trim().min(1, 'page is required'),
    slug: z.string().trim().min(1).optional(),
    title: z.string().trim().min(1).optional(),
    description: z.string().optional(),
    items: z.string().optional(),
    /** The screen's structured groups (the command line uses --items). */
    groups: z.array(statusGroupInputSchema).optional(),
  }),
  args: [pageArg, { name: 'slug', label: 'New slug', kind: 'text', optional: true }, { name: 'title', label: 'Title', kind: 'text', optional: true }, { name: 'description', label: 'Description', kind: 'text', optional: true }, itemsArg],
  permission: 'status.write',
  async run({ page, slug, title, description, items, groups }, ctx) {
    const found = await resolveStatusPage(ctx.api, page);
    const body: UpdateStatusPage = {};
    if (slug !== undefined && slug !== found.slug) body.slug = slug;
    if (title !== undefined && title !== found.title) body.title = title;
    if (description !== undefined && description !== found.description) body.description = description;
    if (items !== undefined) body.groups = await parseItems(ctx.api, items, found.groups);
    else if (groups !== undefined) body.groups = groups;
    if (!Object.keys(body).length) {
      ctx.navigate(`/status-pages/edit/${found._id}`);
      return { message: `Editing **${found.title}**.`, data: found };
    }
    const { result } = await updateStatusPage(ctx.api, found._id, body);
    await ctx.invalidate(queryKeys.statusPages.all);
    return { message: `Updated status page **${result.title}** (\`${publicPath(result.slug)}\`).`, data: result };
  },
});
