import { createContext, useContext, type ComponentType } from 'react';
import type { Server } from '../../../server/contract/servers';
import type { ServerView } from '../../lib/server-view';

/**
 * The Notifications and Alerts Configuration tabs belong to other features (notifications,
 * alert rules). Features do not import each other (STYLE.md), so the route composes them into
 * the server detail through this context.
 */
export interface ServerTabSlots {
  notifications?: ComponentType<{ server: Server; view: ServerView }>;
  alertsConfiguration?: ComponentType<{ server: Server; view: ServerView }>;
}

export const ServerTabSlotsContext = createContext<ServerTabSlots>({});
export const useServerTabSlots = () => useContext(ServerTabSlotsContext);
