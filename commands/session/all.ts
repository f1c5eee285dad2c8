import { logout } from './logout';
import { openAccount } from './open-account';
import { renameAccount } from './rename-account';
import { signIn } from './sign-in';
import { toggleDarkMode } from './toggle-dark-mode';

/** Every command of the "session" domain (sign-in, account, appearance); commands/index.ts collects the domains. */
export const sessionCommands = [signIn, logout, openAccount, renameAccount, toggleDarkMode] as const;
