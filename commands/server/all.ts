import { createServer } from './create-server';
import { deleteServer } from './delete-server';
import { editServer } from './edit-server';
import { refreshServers } from './refresh-servers';
import { showServer } from './show-server';

/** Every command of the "server" domain (list, create, edit, delete, show); commands/index.ts collects the domains. */
export const serverCommands = [showServer, createServer, editServer, deleteServer, refreshServers] as const;
