/**
 * Panels the shell owns (palette, command line, history, shortcuts, account drawer) are opened
 * by commands through ctx.ui.open; this tiny bus lets the component that owns a panel listen
 * without commands importing React or the app importing features.
 */
export type ShellPanel = 'palette' | 'cmdline' | 'history' | 'shortcuts' | 'account';

/** The history panel's filters (history.show's arguments): left out, a filter is off. */
export interface HistoryFilters {
  command?: string;
  username?: string;
  outcome?: string;
  /** A span back from now ("1h", "24h"); none: any time. */
  since?: string;
  /** Opsdeck's own events (fired, resolved, delivered…): shown unless false. */
  system?: boolean;
  /** Sign-ins, sign-outs and views: hidden unless true. */
  signins?: boolean;
}

/** A command the palette opens on, asking only for the arguments `values` does not give. */
export interface PaletteStart {
  command: string;
  values: Record<string, unknown>;
  /** What the given values are, in words (a range chosen on a timeline), shown while the rest is asked. */
  note?: string;
}

/** What a panel opens with: the history panel, its filters; the palette, a command to ask for. */
export interface PanelOptions {
  history?: HistoryFilters;
  palette?: PaletteStart;
}

type Listener = (panel: ShellPanel, options: PanelOptions) => void;

const listeners = new Set<Listener>();

export function openPanel(panel: ShellPanel, options: PanelOptions = {}): void {
  for (const l of listeners) l(panel, options);
}

export function onOpenPanel(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
