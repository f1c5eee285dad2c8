import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** The one element every toast is drawn in (document.body's last child), so toasts stack instead of covering each other. */
export const TOAST_REGION_ID = 'toast-region';

function regionElement(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  let el = document.getElementById(TOAST_REGION_ID);
  if (!el) {
    el = document.createElement('div');
    el.id = TOAST_REGION_ID;
    // Placement and the drawer rule live in styles.css (#toast-region).
    el.className = 'pointer-events-none fixed z-[60] flex flex-col-reverse gap-2';
    document.body.appendChild(el);
  }
  return el;
}

/**
 * Draws a toast into the shared toast region: one column at the bottom left, newest nearest the
 * edge, above a drawer's footer when a drawer is open where the two would meet — so no toast
 * covers the buttons of a drawer (its footer's Delete or Save, its header's commands) nor
 * another toast. Every kind of toast (command notices, messages, live alerts) goes through it.
 */
export function ToastPortal({ children }: { children: ReactNode }) {
  const [el, setEl] = useState<HTMLElement | null>(null);
  useEffect(() => setEl(regionElement()), []);
  return el ? createPortal(children, el) : null;
}
