import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
// Before anything lazy: keeps a Ctrl+K pressed while the app layout is still loading.
import './app/command-host/early-keys';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
