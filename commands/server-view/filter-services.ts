import { z } from 'zod';
import { MAX_TEXT } from '../../server/contract/common';
import { serviceStatusFilters } from '../../src/lib/server-view';
import { defineCommand } from '../define-command';
import { changeView, needsServerDetail } from './current-view';

/**
 * The Services tab's filters (SPEC §2): status All / Active (up) / Down and a service-name
 * search. Given values change, the others stay; with neither, both are cleared. Opens the
 * Services tab and its first page.
 */
export const filterServices = defineCommand({
  id: 'server.services-filter',
  title: 'Filter server services',
  category: 'Server detail',
  input: z.object({ status: z.enum(serviceStatusFilters).optional(), name: z.string().max(MAX_TEXT).optional() }),
  args: [
    { name: 'status', label: 'Status', kind: 'enum', positional: true, optional: true, options: [{ value: 'all', label: 'All' }, { value: 'up', label: 'Active (up)' }, { value: 'down', label: 'Down' }] },
    { name: 'name', label: 'Service name', kind: 'text', optional: true, placeholder: 'Service name contains…' },
  ],
  permission: 'read',
  enabled: needsServerDetail,
  history: false,
  run({ status, name }, ctx) {
    const clear = status === undefined && name === undefined;
    const patch: Record<string, unknown> = { tab: 'services', page: undefined };
    if (clear || status !== undefined) patch.status = status === 'all' || clear ? undefined : status;
    if (clear || name !== undefined) patch.q = name?.trim() || undefined;
    const { search } = changeView(ctx, patch);
    const nextStatus = 'status' in patch ? patch.status : search.status;
    const nextName = 'q' in patch ? patch.q : search.q;
    const shown = nextStatus === 'up' ? 'Active' : nextStatus === 'down' ? 'Down' : 'All';
    return { message: `Services: **${shown}**${nextName ? `, name contains "${String(nextName)}"` : ''}.` };
  },
});
