import type { InverseRun } from './define-command';

/** One run to reverse, with the history record it reverses (sent as `undoOf`). */
export interface UndoStep extends InverseRun {
  recordId?: string;
}

/** One undoable action: a run, or every run of one action over marked rows (a batch). */
export interface UndoEntry {
  key: number;
  userId: string;
  /** What the person did, as the run said it ("Resolved **cpu on web-01**."). */
  title: string;
  steps: UndoStep[];
  /** The batch id of runs over marked rows. */
  batch?: string;
}

const LIMIT = 50;
const STORAGE_KEY = 'opsdeck.undo';

/** Where the stack is kept across reloads (the app gives sessionStorage: one tab's runs). */
export interface UndoStorage {
  get: (key: string) => string | null;
  set: (key: string, value: string) => void;
}

/**
 * The registry's undo stack: each person's undoable runs in this tab, newest last. Only what
 * this tab ran is here (inverses need the run's result, which the history does not keep);
 * runs of one batch (marks) join one entry so one Ctrl+Z undoes them all. With a storage the
 * stack outlives a reload of the tab.
 */
export class UndoStack {
  private entries: UndoEntry[] = [];
  private nextKey = 1;

  constructor(private readonly storage?: UndoStorage) {
    try {
      const saved = JSON.parse(storage?.get(STORAGE_KEY) ?? 'null') as { entries?: UndoEntry[]; nextKey?: number } | null;
      if (saved && Array.isArray(saved.entries) && typeof saved.nextKey === 'number') {
        this.entries = saved.entries;
        this.nextKey = saved.nextKey;
      }
    } catch {
      // Unreadable: start empty.
    }
  }

  private save(): void {
    try {
      this.storage?.set(STORAGE_KEY, JSON.stringify({ entries: this.entries, nextKey: this.nextKey }));
    } catch {
      // Full or unavailable storage: the stack still works for this page.
    }
  }

  /** A run's undo; runs of one batch join its entry, which takes the batch's title. */
  push(userId: string, title: string, steps: UndoStep[], batch?: { id: string; title: string }): UndoEntry {
    const top = this.entries[this.entries.length - 1];
    if (batch && top && top.batch === batch.id && top.userId === userId) {
      top.steps.push(...steps);
      this.save();
      return top;
    }
    const entry: UndoEntry = { key: this.nextKey++, userId, title: batch?.title ?? title, steps, batch: batch?.id };
    this.entries = [...this.entries.slice(-(LIMIT - 1)), entry];
    this.save();
    return entry;
  }

  /** The entry Ctrl+Z would undo for this person. */
  peek(userId: string | undefined): UndoEntry | undefined {
    return userId ? this.entries.findLast((e) => e.userId === userId) : undefined;
  }

  /** Takes an entry off the stack: the given one, or this person's newest. */
  take(userId: string | undefined, key?: number): UndoEntry | undefined {
    const at = this.entries.findLastIndex((e) => e.userId === userId && (key === undefined || e.key === key));
    if (at < 0) return undefined;
    const [entry] = this.entries.splice(at, 1);
    this.save();
    return entry;
  }

  /** Puts back an entry whose undo was declined, where it was among the rest. */
  putBack(entry: UndoEntry): void {
    const at = this.entries.findIndex((e) => e.key > entry.key);
    if (at < 0) this.entries.push(entry);
    else this.entries.splice(at, 0, entry);
    this.save();
  }
}
