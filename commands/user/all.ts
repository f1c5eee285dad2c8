import { createUser } from './create-user';
import { deleteUser } from './delete-user';
import { refreshUsers } from './refresh-users';
import { renameUser } from './rename-user';
import { setUserEmail } from './set-user-email';
import { setUserPhone } from './set-user-phone';
import { setUserRole } from './set-user-role';
import { showUser } from './show-user';

/** Every command of the "user" domain; commands/index.ts collects the domains. */
export const userCommands = [createUser, showUser, renameUser, setUserEmail, setUserPhone, setUserRole, deleteUser, refreshUsers] as const;
