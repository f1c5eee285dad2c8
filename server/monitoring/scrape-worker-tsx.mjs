// From a source checkout (tsx, vitest) the scrape worker is TypeScript: register tsx in the
// worker thread first, then load it. The built server starts build/server/scrape-worker.js
// directly and never reads this file.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
