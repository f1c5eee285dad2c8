import { createStatusPage } from './create-status-page';
import { deleteStatusPage } from './delete-status-page';
import { editStatusPage } from './edit-status-page';
import { postStatus, resolveStatus } from './post-status';
import { refreshStatusPages } from './refresh-status-pages';

/** Every command of the "status" domain (issue 16 §3 public status pages); commands/index.ts collects the domains. */
export const statusCommands = [createStatusPage, editStatusPage, postStatus, resolveStatus, deleteStatusPage, refreshStatusPages] as const;
