import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { notificationGroupOptionsQueryOptions, notificationGroupQueryOptions } from '../../api/notification-groups';
import { ComboBox } from '../../components/ui/combo-box';
import { OPTION_DEBOUNCE_MS, useDebouncedValue } from '../../components/ui/use-debounced-value';

export const NONE = '__none__';

/** The name of a rule's group: from the selector's first page, else fetched on its own. */
export function useGroupName(groupId: string | null): string {
  const options = useQuery(notificationGroupOptionsQueryOptions(''));
  const listed = groupId ? options.data?.result.data.find((g) => g._id === groupId) : undefined;
  const one = useQuery({ ...notificationGroupQueryOptions(groupId ?? ''), enabled: !!groupId && !listed && options.isSuccess });
  if (!groupId) return 'None';
  return listed?.name ?? one.data?.result.name ?? (one.isError ? 'Unknown group' : '…');
}

/**
 * SPEC §2/§7: the Notification Group selector, searchable by name (page size 100) with a
 * 'None' choice. The current group shows as the box's placeholder, so typing searches at once.
 */
export function GroupPicker({ value, ruleLabel, onChoose }: { value: string | null; ruleLabel: string; onChoose: (group: string) => void }) {
  const current = useGroupName(value);
  const [text, setText] = useState('');
  const search = useDebouncedValue(text.trim(), OPTION_DEBOUNCE_MS);
  // A new box after each choice: clearing the text of a focused box would open its list again.
  const [round, setRound] = useState(0);
  const query = useQuery({ ...notificationGroupOptionsQueryOptions(search), placeholderData: keepPreviousData });
  const groups = query.data?.result.data ?? [];
  const items = [
    ...(search === '' || 'none'.startsWith(search.toLowerCase()) ? [{ id: NONE, label: 'None', description: 'No one is notified' }] : []),
    ...groups.map((g) => ({
      id: g._id,
      label: g.name,
      description: [g.emailEnabled && `${g.emailList.length} email${g.emailList.length === 1 ? '' : 's'}`, g.slackEnabled && g.slackChannel && `Slack ${g.slackChannel}`].filter(Boolean).join(' · ') || undefined,
    })),
  ];
  return (
    <ComboBox
      key={round}
      aria-label={`Notification group of ${ruleLabel}`}
      placeholder={current}
      // The placeholder is the value here, so it reads as text rather than a hint.
      className="w-36 [&_input]:placeholder:text-slate-800 dark:[&_input]:placeholder:text-slate-100"
      inputValue={text}
      onInputChange={setText}
      items={items}
      isLoading={query.isFetching}
      emptyText={query.isError ? 'Could not load notification groups' : 'No notification group matches'}
      onSelect={(id) => {
        setText('');
        setRound((r) => r + 1);
        if (id !== (value ?? NONE)) onChoose(id === NONE ? 'none' : id);
      }}
    />
  );
}
