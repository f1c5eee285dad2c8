import { addContactCommand } from './add-contact';
import { addRuleCommand } from './add-rule';
import { listContactsCommand } from './list-contacts';
import { listRulesCommand } from './list-rules';
import { removeContactCommand } from './remove-contact';
import { removeRuleCommand } from './remove-rule';
import { testContactCommand } from './test-contact';
import { verifyContactCommand } from './verify-contact';

/** Every command of the "contact" domain (people's contact methods and notification rules, issue 27 §2); commands/index.ts collects the domains. */
export const contactCommands = [addContactCommand, testContactCommand, verifyContactCommand, removeContactCommand, listContactsCommand, addRuleCommand, removeRuleCommand, listRulesCommand] as const;
