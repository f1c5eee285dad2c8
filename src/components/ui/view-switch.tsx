import { cx } from './cx';
import { useIsPhone } from './use-media-query';

export type ListView = 'cards' | 'table';

/** SPEC §2: the view a list shows, the chosen one or the list's own default; on a phone always cards. */
export function useListView(chosen: ListView | undefined, fallback: ListView): ListView {
  const isPhone = useIsPhone();
  return isPhone ? 'cards' : (chosen ?? fallback);
}

export interface ViewSwitchProps {
  value: ListView;
  /** Called on every press, the current view's too: the screen decides (view.table / view.cards). */
  onChange: (view: ListView) => void;
  /** The list's default view comes first. */
  order?: readonly [ListView, ListView];
}

/** A list's Cards / Table switch (a group named "View" of pressed buttons); absent on a phone, where lists show cards only. */
export function ViewSwitch({ value, onChange, order = ['cards', 'table'] }: ViewSwitchProps) {
  const isPhone = useIsPhone();
  if (isPhone) return null;
  return (
    <div role="group" aria-label="View" className="inline-flex rounded-md border border-slate-300 dark:border-slate-600">
      {order.map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={value === v}
          onClick={() => onChange(v)}
          className={cx(
            'h-9 px-3 text-sm outline-none first:rounded-l-md last:rounded-r-md focus-visible:ring-2 focus-visible:ring-blue-500',
            value === v ? 'bg-blue-600 text-white' : 'hover:bg-slate-100 dark:hover:bg-slate-800',
          )}
        >
          {v === 'table' ? 'Table' : 'Cards'}
        </button>
      ))}
    </div>
  );
}
