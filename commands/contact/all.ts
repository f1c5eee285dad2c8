import { addContactCommand } from './add-contact';
import { listContactsCommand } from './list-contacts';
import { removeContactCommand } from './remove-contact';
import { testContactCommand } from './test-contact';
import { verifyContactCommand } from './verify-contact';

/** Every command of the "contact" domain (people's contact methods, issue 27 §2); commands/index.ts collects the domains. */
export const contactCommands = [addContactCommand, testContactCommand, verifyContactCommand, removeContactCommand, listContactsCommand] as const;
