import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { AlertRule } from '../../../server/contract/alerts';
import type { Server } from '../../../server/contract/servers';
import { changedRuleIds, draftRules } from '../../../commands/rules/rule-draft';
import { alertConfigQueryOptions } from '../../api/alert-config';
import { Pagination } from '../../components/ui/pagination';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import type { ServerView } from '../../lib/server-view';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { RulesTable, type RuleActions } from './rules-table';
import { useRuleDraft } from './use-rule-draft';
import { RefreshButton } from '../../components/ui/refresh-button';
import { LoadError } from '../../components/ui/load-error';

/** SPEC §9: the rules table shows 10 rows, with 10/20/30 to choose from. */
const PAGE_SIZES = [10, 20, 30] as const;

/**
 * SPEC §2 Alerts Configuration tab: the server's rules with their threshold, grace period,
 * severity, notification group and Enabled toggle. Edits are held (SPEC §4) in the draft the
 * rules.* commands share, marked per row, until Update (rules.save) sends them.
 */
export function AlertsConfigTab({ server }: { server: Server; view: ServerView }) {
  const runner = useCommandRunner();
  const query = useQuery(alertConfigQueryOptions(server._id));
  const config = query.data ? (query.data.result.data[0] ?? null) : undefined;
  const draft = useRuleDraft(server, config);
  const [paging, setPaging] = useState({ page: 1, pageSize: 10 });

  // The draft's base is the newest the server said (the fetch, or a save's answer before the refetch).
  const rows = useMemo(() => (draft ? draftRules(draft) : (config?.rules ?? [])), [draft, config]);
  const changed = useMemo(() => new Set(draft ? changedRuleIds(draft) : []), [draft]);
  const dirty = changed.size > 0;
  useUnsavedChanges(dirty);

  const writeCheck = runner.check('rules.enable');
  const writable = writeCheck === true;
  const serverRef = server._id;
  const actions = useMemo<RuleActions>(
    () => ({
      setEnabled: (r: AlertRule, on: boolean) => void runner.run(on ? 'rules.enable' : 'rules.disable', { rule: r.name, server: serverRef }),
      setThreshold: (r, threshold) => void runner.run('rules.set-threshold', { rule: r.name, threshold, server: serverRef }),
      setGrace: (r, grace) => void runner.run('rules.set-grace', { rule: r.name, grace, server: serverRef }),
      setSeverity: (r, severity) => void runner.run('rules.set-severity', { rule: r.name, severity, server: serverRef }),
      setGroup: (r, group) => void runner.run('rules.set-group', { rule: r.name, group, server: serverRef }),
      setRouting: (r, change) => void runner.run('rules.set-routing', { rule: r.name, server: serverRef, ...change }),
    }),
    [runner, serverRef],
  );

  const pages = Math.max(1, Math.ceil(rows.length / paging.pageSize));
  const page = Math.min(paging.page, pages);
  const shown = rows.slice((page - 1) * paging.pageSize, page * paging.pageSize);

  if (config === null) {
    return (
      <section className="flex flex-col items-center gap-3 rounded-lg border border-slate-200 bg-white p-10 text-center dark:border-slate-700 dark:bg-slate-900">
        <span aria-hidden className="flex h-12 w-12 items-center justify-center rounded-full bg-amber-100 text-2xl text-amber-700 dark:bg-amber-900 dark:text-amber-200">
          !
        </span>
        <h2 className="text-lg font-semibold">No Alert Config Found</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">This server has no alert config. Please create one.</p>
        <CommandButton command="rules.create-defaults" input={{ server: serverRef }} variant="primary">
          Create Default Alert Rules
        </CommandButton>
      </section>
    );
  }

  return (
    <section aria-labelledby="alert-rules-heading" className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <div className="mb-3 flex flex-wrap items-center gap-2">
        <h2 id="alert-rules-heading" className="mr-auto text-base font-semibold">
          Alert Rules
        </h2>
        {dirty && (
          <span role="status" className="text-sm text-amber-700 dark:text-amber-300">
            {changed.size} rule{changed.size === 1 ? '' : 's'} changed, not saved
          </span>
        )}
        <RefreshButton command="rules.refresh" input={{ server: serverRef }} size="sm" aria-label="Refresh alert rules" spinning={query.isFetching} isDisabled={query.isFetching} />
        {writable && dirty && (
          <CommandButton command="rules.discard-changes" input={{}} size="sm" variant="ghost">
            Discard changes
          </CommandButton>
        )}
        <CommandButton command="rules.reset" input={{ server: serverRef }} size="sm" variant="danger-ghost" isDisabled={!config}>
          Reset To Default
        </CommandButton>
        <CommandButton command="rules.save" input={{}} size="sm" variant="primary">
          Update
        </CommandButton>
      </div>
      {!writable && <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">Read only: your role cannot change alert rules.</p>}
      {query.isError && (
        <LoadError className="mb-3" title="Could not load the alert rules." detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      )}
      {!query.isError && (
        <RulesTable rows={shown} changed={changed} loading={query.isPending} readOnly={!writable} actions={actions} caption={`Alert rules of ${server.hostname}`} />
      )}
      {rows.length > 0 && (
        <div className="mt-3">
          <Pagination page={page} pageSize={paging.pageSize} total={rows.length} pageSizes={PAGE_SIZES} onChange={(p, pageSize) => setPaging({ page: p, pageSize })} />
        </div>
      )}
    </section>
  );
}
