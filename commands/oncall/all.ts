import { addLayerCommand } from './add-layer';
import { createScheduleCommand } from './create-schedule';
import { editLayerCommand } from './edit-layer';
import { myFeedCommand, scheduleFeedCommand } from './feeds';
import { importScheduleCommand } from './import-schedule';
import { overrideCommand } from './override';
import { refreshSchedulesCommand } from './refresh';
import { swapCommand } from './swap';
import { whoCommand } from './who';

/** Every command of the "on call" domain (issue 27); commands/index.ts collects the domains. */
export const oncallCommands = [whoCommand, createScheduleCommand, addLayerCommand, editLayerCommand, overrideCommand, swapCommand, importScheduleCommand, scheduleFeedCommand, myFeedCommand, refreshSchedulesCommand] as const;
