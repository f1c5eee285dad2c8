import { useId } from 'react';
import { Button } from '../../components/ui/button';
import { cx } from '../../components/ui/cx';
import { SearchField } from '../../components/ui/search-field';
import { Segmented } from '../../components/ui/segmented';
import { inputClass } from '../../components/ui/text-field';
import { statusFilterOptions, type AlertListFilters, type StatusFilter } from './notifications-search';
import { RefreshButton } from '../../components/ui/refresh-button';

export interface AlertFiltersProps {
  filters: Pick<AlertListFilters, 'hostname' | 'status' | 'from' | 'to'>;
  onChange: (patch: Partial<Pick<AlertListFilters, 'hostname' | 'status' | 'from' | 'to'>>) => void;
  /** The list's first load: Refresh waits for it (it turns while alerts.refresh runs). */
  loading: boolean;
}

/** SPEC §2: date-range filter, status All/Active/Resolved/Snoozed, hostname search (500 ms), refresh. */
export function AlertFilters({ filters, onChange, loading }: AlertFiltersProps) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-from`} className="text-xs font-medium text-slate-600 dark:text-slate-400">
          From
        </label>
        <input id={`${id}-from`} type="date" value={filters.from ?? ''} max={filters.to} onChange={(e) => onChange({ from: e.target.value || undefined })} className={cx(inputClass, 'w-40 dark:[color-scheme:dark]')} />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-to`} className="text-xs font-medium text-slate-600 dark:text-slate-400">
          To
        </label>
        <input id={`${id}-to`} type="date" value={filters.to ?? ''} min={filters.from} onChange={(e) => onChange({ to: e.target.value || undefined })} className={cx(inputClass, 'w-40 dark:[color-scheme:dark]')} />
      </div>
      {(filters.from || filters.to) && (
        <Button size="sm" variant="ghost" onPress={() => onChange({ from: undefined, to: undefined })}>
          Clear dates
        </Button>
      )}
      <Segmented<StatusFilter> aria-label="Status" options={statusFilterOptions} value={filters.status} onChange={(status) => onChange({ status })} />
      <SearchField aria-label="Search by Hostname" placeholder="Search by Hostname" value={filters.hostname ?? ''} onChange={(hostname) => onChange({ hostname: hostname || undefined })} className="w-56" />
      <RefreshButton command="alerts.refresh" input={{}} spinning={loading} isDisabled={loading} />
    </div>
  );
}
