import { editWidget } from './edit-widget';
import { moveWidget } from './move-widget';
import { pinWidget } from './pin-widget';
import { removeWidget } from './remove-widget';
import { resetWidgetLayout } from './reset-layout';
import { resizeWidget } from './resize-widget';

/** Every command of the "widget" domain; commands/index.ts collects the domains. */
export const widgetCommands = [pinWidget, removeWidget, editWidget, moveWidget, resizeWidget, resetWidgetLayout] as const;
