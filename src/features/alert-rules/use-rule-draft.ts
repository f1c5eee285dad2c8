import { useCallback, useEffect, useSyncExternalStore } from 'react';
import type { AlertConfig } from '../../../server/contract/alerts';
import { draftKey, rebase, type RuleDraft } from '../../../commands/rules/rule-draft';
import { appDrafts } from '../../lib/draft-store';

/**
 * The tab's held edits live in the app's draft store, not in component state, so the rules.*
 * commands (palette, command line) edit the same draft as the table's controls. The draft exists
 * while the tab is open: it follows each fetch of the config (keeping edits that still differ)
 * and goes away when the tab closes (the unsaved-changes warning asked first).
 */
export function useRuleDraft(server: { _id: string; hostname: string }, config: AlertConfig | null | undefined): RuleDraft | undefined {
  const key = draftKey(server._id);
  const get = useCallback(() => appDrafts.get<RuleDraft>(key), [key]);
  const draft = useSyncExternalStore(appDrafts.subscribe, get, get);

  useEffect(() => {
    if (config === undefined) return;
    if (config === null) return appDrafts.set(key, undefined);
    const current = appDrafts.get<RuleDraft>(key);
    if (current?.base === config) return;
    appDrafts.set(key, { serverId: server._id, hostname: server.hostname, base: config, edits: current ? rebase(current.edits, config) : {} } satisfies RuleDraft);
  }, [key, config, server._id, server.hostname]);

  useEffect(() => () => appDrafts.set(key, undefined), [key]);
  return draft;
}
