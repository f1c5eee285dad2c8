import { z } from 'zod';
import type { Permission } from '../../server/contract/permissions';
import { defineCommand } from '../define-command';

/**
 * The menu, as commands. Generated from one table because the six differ only in data;
 * the sidebar reads `menuItems` too, so a label or shortcut is declared once.
 */
export const menuItems = [
  { id: 'nav.go-dashboard', label: 'Dashboard', to: '/', shortcut: 'alt+1', permission: 'read' },
  { id: 'nav.go-servers', label: 'Servers', to: '/servers', shortcut: 'alt+2', permission: 'read' },
  { id: 'nav.go-checks', label: 'Checks', to: '/checks', shortcut: 'alt+7', permission: 'read' },
  { id: 'nav.go-notifications', label: 'Notifications', to: '/notifications', shortcut: 'alt+3', permission: 'read' },
  { id: 'nav.go-notification-groups', label: 'Notification Groups', to: '/notification-groups', shortcut: 'alt+4', permission: 'read' },
  { id: 'nav.go-pinned-widgets', label: 'Pinned Widgets', to: '/pinned-widgets', shortcut: 'alt+5', permission: 'read' },
  { id: 'nav.go-status-pages', label: 'Status Pages', to: '/status-pages', shortcut: 'alt+8', permission: 'read' },
  { id: 'nav.go-oncall', label: 'On Call', to: '/oncall', shortcut: 'alt+9', permission: 'read' },
  { id: 'nav.go-users', label: 'Users', to: '/users', shortcut: 'alt+6', permission: 'users.read' },
] as const satisfies readonly { id: string; label: string; to: string; shortcut: string; permission: Permission }[];

export const goCommands = menuItems.map((item) =>
  defineCommand({
    id: item.id,
    title: `Go to ${item.label}`,
    category: 'Navigation',
    input: z.object({}).strict(),
    permission: item.permission,
    shortcut: item.shortcut,
    history: false,
    run(_input, ctx) {
      ctx.navigate(item.to);
      return {};
    },
  }),
);
