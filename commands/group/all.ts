import { addGroupChannel_ } from './add-channel';
import { addGroupEmail } from './add-group-email';
import { editGroupChannel_ } from './edit-channel';
import { removeGroupChannel_ } from './remove-channel';
import { testGroup } from './test-group';
import { createGroup } from './create-group';
import { createDefaultGroup } from './create-default-group';
import { deleteGroup } from './delete-group';
import { editGroup } from './edit-group';
import { refreshGroups } from './refresh-groups';
import { removeGroupEmail } from './remove-group-email';
import { setDefaultGroupCommand } from './set-default-group';
import { setEscalation } from './set-escalation';
import { showGroup } from './show-group';

/** Every command of the "group" domain; commands/index.ts collects the domains. */
export const groupCommands = [showGroup, createGroup, editGroup, deleteGroup, addGroupEmail, removeGroupEmail, setEscalation, refreshGroups, addGroupChannel_, editGroupChannel_, removeGroupChannel_, testGroup, setDefaultGroupCommand, createDefaultGroup] as const;
