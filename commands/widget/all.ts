import { editWidget } from './edit-widget';
import { pinWidget } from './pin-widget';
import { removeWidget } from './remove-widget';
import { resetWidgetLayout } from './reset-layout';

/** Every command of the "widget" domain; commands/index.ts collects the domains. */
export const widgetCommands = [pinWidget, removeWidget, editWidget, resetWidgetLayout] as const;
