import type { GlobalProvider } from '@ladle/react';
import { useEffect } from 'react';
import '../src/styles.css';

/** Follows Ladle's theme switch with our `dark` class, so every story is seen light and dark. */
export const Provider: GlobalProvider = ({ children, globalState }) => {
  useEffect(() => {
    document.documentElement.classList.toggle('dark', globalState.theme === 'dark');
  }, [globalState.theme]);
  return <div className="min-h-screen bg-white p-6 text-slate-900 dark:bg-slate-950 dark:text-slate-100">{children}</div>;
};
