import { clearMarks, markRange, markRow } from './mark-commands';

/** Marking rows of a list (Space, Shift+Space, Escape). */
export const marksCommands = [markRow, markRange, clearMarks] as const;
