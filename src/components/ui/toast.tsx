import { useSyncExternalStore } from 'react';
import { cx } from './cx';
import { ToastPortal } from './toast-region';

export interface Toast {
  id: number;
  kind: 'success' | 'error' | 'info';
  text: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a short message in the corner; errors stay longer. */
export function toast(kind: Toast['kind'], text: string): void {
  const id = nextId++;
  toasts = [...toasts, { id, kind, text }].slice(-4);
  emit();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }, kind === 'error' ? 8000 : 4000);
}

export function Toaster() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <ToastPortal>
      <div role="status" aria-live="polite" className="flex flex-col-reverse gap-2">
        {list.map((t) => (
          <div
            key={t.id}
            className={cx(
              'pointer-events-auto rounded-md border px-3 py-2 text-sm shadow-md',
              t.kind === 'error' && 'border-red-300 bg-red-50 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
              t.kind === 'success' && 'border-green-300 bg-green-50 text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200',
              t.kind === 'info' && 'border-slate-300 bg-white text-slate-800 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200',
            )}
          >
            {t.text}
          </div>
        ))}
      </div>
    </ToastPortal>
  );
}
