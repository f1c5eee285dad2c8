/**
 * Edits a screen holds until a person saves them (SPEC §4: alert rules are held locally until
 * Update). The screen renders the draft and the commands that edit it (from its own controls,
 * the palette or the command line) change it here, so both see one state without commands
 * importing React. Keys name the screen and its subject, e.g. `rules:<serverId>`.
 */
export interface DraftStore {
  get: <T>(key: string) => T | undefined;
  /** `undefined` removes the draft (the screen closed, or its edits were saved or dropped). */
  set: (key: string, value: unknown) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createDraftStore(): DraftStore {
  const drafts = new Map<string, unknown>();
  const listeners = new Set<() => void>();
  return {
    get: <T,>(key: string) => drafts.get(key) as T | undefined,
    set(key, value) {
      if (value === undefined) {
        if (!drafts.delete(key)) return;
      } else drafts.set(key, value);
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The app's one store; the command host hands it to commands as `ctx.drafts`. */
export const appDrafts = createDraftStore();
