import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi, Outlet, useNavigate } from '@tanstack/react-router';
import { tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import type { StatusPage } from '../../../server/contract/status-pages';
import { statusPagesListQueryOptions } from '../../api/status-pages';
import { statusPagesListQuery } from './status-pages-query';
import { Button } from '../../components/ui/button';
import { DataTable } from '../../components/ui/data-table';
import { Modal } from '../../components/ui/modal';
import { ListPagination } from '../../components/ui/list-pagination';
import { SearchField } from '../../components/ui/search-field';
import { TextArea } from '../../components/ui/text-area';
import { TextField } from '../../components/ui/text-field';
import { formatRelativeTime } from '../../lib/format';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';
import { LinkButton } from '../../components/ui/link-button';

const route = getRouteApi('/app/status-pages');
const features = tableFeatures({});

/** The incident form: a post (status.post) or the closing update (status.resolve), run as commands. */
function IncidentDialog({ page, mode, onClose }: { page: StatusPage; mode: 'post' | 'resolve'; onClose: () => void }) {
  const opens = mode === 'post' && !page.openIncident;
  const form = useCommandForm<'status.post' | 'status.resolve', { body: string; title: string }, 'body'>(mode === 'post' ? 'status.post' : 'status.resolve', {
    initial: { body: '', title: '' },
    toInput: ({ body, title }) => (mode === 'post' ? { body, ...(opens && title.trim() ? { title: title.trim() } : {}) } : { ...(body.trim() ? { body } : {}) }),
    fixed: { page: page._id },
    validate: ({ body }) => (mode === 'post' && !body.trim() ? { body: 'Write the update to post' } : {}),
    // Every message is said under the fields, as the command words it.
    field: () => undefined,
    onDone: () => onClose(),
  });
  const { body, title } = form.values!;
  const { busy } = form;
  const error = form.errors.body ?? form.formError;
  const setBody = (v: string) => form.update((prev) => ({ ...prev, body: v }));
  const setTitle = (v: string) => form.update((prev) => ({ ...prev, title: v }));
  const submit = () => form.submit();
  return (
    <Modal
      title={mode === 'post' ? (opens ? `New incident on ${page.title}` : `Update: ${page.openIncident}`) : `Resolve: ${page.openIncident}`}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      width={640}
      footer={
        <>
          <Button onPress={onClose}>Cancel</Button>
          <Button variant="primary" onPress={() => void submit()} isDisabled={busy}>
            {busy ? 'Posting…' : mode === 'post' ? 'Post update' : 'Resolve incident'}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        {opens && <TextField label="Incident title" placeholder="By default the update's first line" value={title} onChange={setTitle} />}
        <TextArea
          label={mode === 'post' ? 'Update (markdown)' : 'Last update (markdown, optional)'}
          placeholder={mode === 'post' ? 'We are investigating failed payments.' : 'This incident has been resolved.'}
          rows={6}
          value={body}
          onChange={setBody}
          autoFocus
        />
        <p className="text-xs text-slate-500 dark:text-slate-400">Shown publicly at /status/{page.slug}. Markdown without HTML; links to http, https and mailto only.</p>
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    </Modal>
  );
}

/** Status pages (issue 16 §3): the list admins compose pages from, in the checks list's style; every action is a command. */
export function StatusPagesPage() {
  const runner = useCommandRunner();
  const navigate = useNavigate();
  const search = route.useSearch();
  const navigateList = route.useNavigate();
  const q = search.q ?? '';
  const [dialog, setDialog] = useState<{ page: StatusPage; mode: 'post' | 'resolve' } | null>(null);
  const query = useQuery({
    ...statusPagesListQueryOptions(statusPagesListQuery(search)),
    placeholderData: keepPreviousData,
    refetchInterval: 30_000,
  });
  const canWrite = runner.check('status.create');
  const pages = query.data?.result.data ?? [];
  const total = query.data?.result.count ?? 0;
  const now = Date.now();

  const columns = useMemo<ColumnDef<typeof features, StatusPage>[]>(
    () => [
      {
        id: 'title',
        header: () => <span className="font-semibold">Title</span>,
        cell: ({ row }) => (
          <div className="min-w-0">
            <div className="font-medium">{row.original.title}</div>
            <a href={`/status/${row.original.slug}`} target="_blank" rel="noopener noreferrer" className="font-mono text-xs text-blue-700 hover:underline dark:text-blue-400" onClick={(e) => e.stopPropagation()}>
              /status/{row.original.slug}
            </a>
          </div>
        ),
      },
      {
        id: 'items',
        header: () => <span className="font-semibold">Items</span>,
        cell: ({ row }) => {
          const items = row.original.groups.flatMap((g) => g.items);
          const gone = items.filter((i) => i.name === null).length;
          return (
            <span className="whitespace-nowrap tabular-nums" title={items.map((i) => `${i.displayName} ← ${i.name ?? 'deleted'}`).join('\n')}>
              {items.length} in {row.original.groups.length} group{row.original.groups.length === 1 ? '' : 's'}
              {gone > 0 && <span className="ml-1 text-orange-700 dark:text-orange-400">({gone} deleted)</span>}
            </span>
          );
        },
      },
      {
        id: 'incident',
        header: () => <span className="font-semibold">Incident</span>,
        cell: ({ row }) =>
          row.original.openIncident ? (
            <span className="font-medium text-orange-700 dark:text-orange-300">{row.original.openIncident}</span>
          ) : (
            <span className="text-slate-500 dark:text-slate-400">None open</span>
          ),
      },
      { id: 'updated', header: () => <span className="font-semibold">Updated</span>, cell: ({ row }) => <span className="whitespace-nowrap">{formatRelativeTime(row.original.updatedAt, now)}</span> },
      {
        id: 'actions',
        header: () => <span className="font-semibold">Actions</span>,
        cell: ({ row }) => {
          const p = row.original;
          // Each button asks the command it runs, or the one its dialog or drawer runs.
          const reason = (id: 'status.post' | 'status.resolve' | 'status.edit') => {
            const allowed = runner.check(id);
            return allowed === true ? false : allowed;
          };
          return (
            <div className="flex items-center gap-1 whitespace-nowrap" onClick={(e) => e.stopPropagation()}>
              <Button variant="ghost" size="sm" disabledReason={reason('status.post')} onPress={() => setDialog({ page: p, mode: 'post' })} aria-label={`Post update on ${p.title}`}>
                Post update
              </Button>
              {p.openIncident && (
                <Button variant="ghost" size="sm" disabledReason={reason('status.resolve')} onPress={() => setDialog({ page: p, mode: 'resolve' })} aria-label={`Resolve the incident on ${p.title}`}>
                  Resolve
                </Button>
              )}
              <Button variant="ghost" size="sm" disabledReason={reason('status.edit')} onPress={() => void navigate({ to: '/status-pages/edit/$id', params: { id: p._id }, search: (prev) => prev })} aria-label={`Edit ${p.title}`}>
                Edit
              </Button>
              <CommandButton command="status.delete" input={{ page: p._id }} variant="danger-ghost" size="sm" aria-label={`Delete ${p.title}`}>
                Delete
              </CommandButton>
            </div>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [runner, now],
  );
  const table = useTable({ features, columns, data: pages, getRowId: (p) => p._id });

  const empty = q.trim() ? (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-sm text-slate-600 dark:text-slate-400">No status pages match.</p>
      <CommandButton command="list.search" input={{}}>
        Clear search
      </CommandButton>
    </div>
  ) : (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <h2 className="text-lg font-semibold">No status pages yet</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">Publish the state of chosen servers and checks, with 90-day uptime and incident updates, at an address anyone can open.</p>
      {canWrite === true && (
        <LinkButton to="/status-pages/create" search={true}>
          Create status page
        </LinkButton>
      )}
    </div>
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="mr-auto text-2xl font-semibold">Status Pages</h1>
        <SearchField
          aria-label="Search by slug or title"
          placeholder="Search by slug or title"
          value={q}
          // The list's controls run the list commands (issue 13), as the palette and the command line do.
          onChange={(v) => void runner.run('list.search', { text: v })}
          className="w-60"
        />
        <RefreshButton command="status.refresh" input={{}} spinning={query.isFetching} isDisabled={query.isFetching} />
        <LinkButton to="/status-pages/create" search={true} disabledReason={canWrite !== true && canWrite}>
          Create status page
        </LinkButton>
      </div>
      {query.isError && (
        <LoadError title="Could not load status pages." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      )}
      <DataTable table={table} label="Status pages" loading={query.isPending} empty={empty} onRowClick={(p) => runner.check('status.edit') === true && void navigate({ to: '/status-pages/edit/$id', params: { id: p._id }, search: (prev) => prev })} />
      <ListPagination page={search.page} pageSize={search.pageSize} total={total} onPage={(page) => void navigateList({ search: (prev) => ({ ...prev, page }), replace: true })} />
      {dialog && <IncidentDialog page={dialog.page} mode={dialog.mode} onClose={() => setDialog(null)} />}
      <Outlet />
    </div>
  );
}
