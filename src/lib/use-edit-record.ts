import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CommandId } from '../../commands';
import { toast } from '../components/ui/toast';
import { useLeaveUnlessAllowed } from './use-leave-unless-allowed';

/**
 * What every edit-drawer route does before its form (servers, checks, status pages, groups): send
 * the person back when their role may not run the edit command, load the record only then, and on
 * a failed load say "Could not load the <noun>: …" and go back to the list. `close(true)` leaves
 * without the unsaved-changes prompt.
 */
export function useEditRecord<TData, TKey extends QueryKey>(
  commandId: CommandId,
  options: UseQueryOptions<TData, Error, TData, TKey>,
  noun: string,
  close: (ignoreBlocker?: boolean) => void,
): { allowed: boolean; data: TData | undefined } {
  const allowed = useLeaveUnlessAllowed(commandId, () => close(true));
  const query = useQuery({ ...options, enabled: allowed });
  useEffect(() => {
    if (!query.isError) return;
    toast('error', `Could not load the ${noun}: ${query.error.message}`);
    close(true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);
  return { allowed, data: query.data };
}
