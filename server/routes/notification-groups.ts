import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { groupResource } from '../notification-groups/resource';
import { registerResource } from './resource';

/** SPEC §7 notification-groups: list (search by name), create, edit, get, delete. */
export function registerNotificationGroups(app: FastifyInstance, db: Db, changed: () => void = () => {}): void {
  registerResource(app, db, groupResource(changed));
}
