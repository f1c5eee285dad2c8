import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { Fragment, type ReactNode } from 'react';
import type { CommandId } from '../../commands';
import { useEditRecord } from './use-edit-record';

export interface EditDrawerRouteProps<TData extends { result: unknown }, TKey extends QueryKey> {
  /** The edit command: a role that may not run it is sent back to the list with the reason. */
  command: CommandId;
  /** The record's query, by the route's `$id`. */
  query: (id: string) => UseQueryOptions<TData, Error, TData, TKey>;
  /** "server": a failed load says "Could not load the server: …" and goes back to the list. */
  noun: string;
  /** The list the drawer lies over; closing keeps its URL state (search, page). */
  list: string;
  /**
   * The form, given the loaded record (undefined while it loads: the drawer opens at once and
   * fills in) and `close(true)`, which leaves without the unsaved-changes prompt.
   */
  children: (record: TData['result'] | undefined, close: (ignoreBlocker?: boolean) => void, id: string) => ReactNode;
}

/**
 * Every `/<list>/edit/$id` drawer (servers, checks, status pages, notification groups): the
 * permission check, the record's load and its failure, then the form. The form is keyed by the
 * id, so moving from one record's edit to another's starts a fresh form.
 */
export function EditDrawerRoute<TData extends { result: unknown }, TKey extends QueryKey>({ command, query, noun, list, children }: EditDrawerRouteProps<TData, TKey>) {
  const { id } = useParams({ strict: false }) as { id: string };
  const navigate = useNavigate();
  const close = (ignoreBlocker = false) => void navigate({ to: list, search: (s: Record<string, unknown>) => s, ignoreBlocker } as Parameters<typeof navigate>[0]);
  const { allowed, data } = useEditRecord(command, query(id), noun, close);
  if (!allowed) return null;
  return <Fragment key={id}>{children(data?.result, close, id)}</Fragment>;
}
