import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { usersResource } from '../users/service';
import { registerResource } from './resource';

/** Users as SPEC §7's resource (server/users/service.ts). */
export function registerUsers(app: FastifyInstance, db: Db): void {
  registerResource(app, db, usersResource);
}
