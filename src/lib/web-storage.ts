/**
 * The browser's storages as key-value stores that never throw (without storage they keep
 * nothing): sessionStorage for what one tab keeps across reloads (the undo stack), localStorage
 * for what a person keeps in this browser (recents). Pinned widgets use `browserStore`
 * (src/lib/pinned-widgets.ts), which also tells the page about writes.
 */
function webStore(pick: () => Storage) {
  return {
    get: (key: string): string | null => {
      try {
        return pick().getItem(key);
      } catch {
        return null;
      }
    },
    set: (key: string, value: string): void => {
      try {
        pick().setItem(key, value);
      } catch {
        // Full or disabled: nothing kept.
      }
    },
  };
}

export const tabStore = webStore(() => sessionStorage);
export const localStore = webStore(() => localStorage);
