import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Server } from '../../../server/contract/servers';
import { serverSelectorQueryOptions } from '../../api/servers';
import { ComboBox } from '../ui/combo-box';
import { OPTION_DEBOUNCE_MS, useDebouncedValue } from '../ui/use-debounced-value';

/** The line under a hostname where a picker names more than the address: "10.0.0.1 · Linux". */
export const addressAndOs = (server: Server) => `${server.ipaddress} · ${server.operating_system === 'windows' ? 'Windows' : 'Linux'}`;

export interface ServerPickerProps {
  label?: string;
  'aria-label'?: string;
  placeholder: string;
  className?: string;
  /** What the list says when no server matches the text (a failed load says "Could not load servers"). */
  emptyText: string;
  /** The line under each hostname. */
  description: (server: Server) => string;
  /**
   * Given (null while none is), the picker is a form field: the box keeps the chosen hostname,
   * and typing over it un-chooses it (`onClear`). Not given, the box only picks and empties after each pick.
   */
  chosen?: { id: string; hostname: string } | null;
  onClear?: () => void;
  onSelect: (server: Server) => void;
}

/**
 * SPEC §7 Server selector: active, agent-configured servers whose hostname contains the text,
 * 100 at most, asked for once the text has been still for 300 ms (SPEC §9); the last answer
 * stays listed while the next one loads.
 */
export function ServerPicker({ chosen, onClear, onSelect, description, emptyText, ...box }: ServerPickerProps) {
  const [text, setText] = useState('');
  const debounced = useDebouncedValue(text.trim(), OPTION_DEBOUNCE_MS);
  const query = useQuery({ ...serverSelectorQueryOptions(debounced), placeholderData: keepPreviousData });
  const servers = query.data?.result.data ?? [];
  const items = servers.map((s) => ({ id: s._id, label: s.hostname, description: description(s) }));
  const field = chosen !== undefined;
  return (
    <ComboBox
      {...box}
      inputValue={text}
      onInputChange={(t) => {
        setText(t);
        // The box shows what will be saved: another text than the chosen hostname chooses nothing.
        if (chosen && t !== chosen.hostname) onClear?.();
      }}
      items={items}
      selectedKey={chosen?.id ?? null}
      isLoading={query.isFetching}
      emptyText={query.isError ? 'Could not load servers' : emptyText}
      onSelect={(id) => {
        const server = servers.find((s) => s._id === id);
        if (!field) setText('');
        if (!server) return;
        if (field) setText(server.hostname);
        onSelect(server);
      }}
    />
  );
}
