import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';
import { cx } from './cx';

export interface TabsProps<K extends string> {
  'aria-label': string;
  items: readonly { id: K; label: string }[];
  selectedKey: K;
  onSelectionChange: (key: K) => void;
  /** The content of the selected tab; only the selected one is rendered. */
  children: (key: K) => ReactNode;
  className?: string;
}

/** Tabs (role tablist/tab/tabpanel, arrow keys move between tabs), selection controlled by the caller. */
export function Tabs<K extends string>({ items, selectedKey, onSelectionChange, children, className, ...rest }: TabsProps<K>) {
  return (
    <AriaTabs selectedKey={selectedKey} onSelectionChange={(k) => k !== selectedKey && onSelectionChange(k as K)} className={cx('flex flex-col', className)}>
      <TabList aria-label={rest['aria-label']} className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
        {items.map((item) => (
          <Tab
            key={item.id}
            id={item.id}
            className={cx(
              '-mb-px cursor-default border-b-2 border-transparent px-3 py-2 text-sm whitespace-nowrap text-slate-600 outline-none',
              'data-[hovered]:text-slate-900 data-[selected]:border-blue-600 data-[selected]:font-semibold data-[selected]:text-blue-700',
              'data-[focus-visible]:ring-2 data-[focus-visible]:ring-blue-500 dark:text-slate-300 dark:data-[hovered]:text-white dark:data-[selected]:border-blue-400 dark:data-[selected]:text-blue-300',
            )}
          >
            {item.label}
          </Tab>
        ))}
      </TabList>
      {items.map((item) => (
        <TabPanel key={item.id} id={item.id} className="pt-4 outline-none data-[focus-visible]:ring-2 data-[focus-visible]:ring-blue-500">
          {item.id === selectedKey ? children(item.id) : null}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
