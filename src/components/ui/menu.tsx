import type { ReactNode } from 'react';
import { Menu as AriaMenu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { Button } from './button';
import { Icon } from './icons';

export interface MenuAction {
  id: string;
  label: string;
  onAction: () => void;
  isDisabled?: boolean;
  danger?: boolean;
}

export function Menu({ label, trigger = <Icon name="more" />, actions }: { label: string; trigger?: ReactNode; actions: MenuAction[] }) {
  return (
    <MenuTrigger>
      <Button variant="ghost" size="sm" aria-label={label}>
        {trigger}
      </Button>
      <Popover className="min-w-32 rounded-md border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <AriaMenu className="outline-none" disabledKeys={actions.filter((a) => a.isDisabled).map((a) => a.id)}>
          {actions.map((a) => (
            <MenuItem
              key={a.id}
              id={a.id}
              onAction={a.onAction}
              className={`cursor-default rounded px-2 py-1.5 text-sm outline-none data-[focused]:bg-slate-100 data-[disabled]:opacity-50 dark:data-[focused]:bg-slate-800 ${a.danger ? 'text-red-600 dark:text-red-400' : ''}`}
            >
              {a.label}
            </MenuItem>
          ))}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}
