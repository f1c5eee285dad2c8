import { createDefaults } from './create-defaults';
import { disableRule } from './disable-rule';
import { discardChanges } from './discard-changes';
import { enableRule } from './enable-rule';
import { refreshRules } from './refresh-rules';
import { resetRules } from './reset-rules';
import { saveRules } from './save-rules';
import { setGrace } from './set-grace';
import { setGroup } from './set-group';
import { setRouting } from './set-routing';
import { setSeverity } from './set-severity';
import { setThreshold } from './set-threshold';

/** Every command of the "rules" domain; commands/index.ts collects the domains. */
export const rulesCommands = [enableRule, disableRule, setThreshold, setGrace, setSeverity, setGroup, setRouting, saveRules, discardChanges, resetRules, createDefaults, refreshRules] as const;
