/**
 * Panels the shell owns (palette, command line, history, shortcuts, account drawer) are opened
 * by commands through ctx.ui.open; this tiny bus lets the component that owns a panel listen
 * without commands importing React or the app importing features.
 */
export type ShellPanel = 'palette' | 'cmdline' | 'history' | 'shortcuts' | 'account';
type Listener = (panel: ShellPanel) => void;

const listeners = new Set<Listener>();

export function openPanel(panel: ShellPanel): void {
  for (const l of listeners) l(panel);
}

export function onOpenPanel(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
