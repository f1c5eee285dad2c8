/**
 * The scrape worker thread's entry (started by scrape-client.ts): relays messages to a
 * ScrapeEngine. Built as its own file (build/server/scrape-worker.js beside cli.js); from source
 * it is loaded through scrape-worker-tsx.mjs.
 */
import { parentPort } from 'node:worker_threads';
import { ScrapeEngine } from './scrape-engine';
import type { FromWorker, ToWorker } from './scrape-protocol';

const port = parentPort;
if (!port) throw new Error('scrape-worker.ts runs as a worker thread (scrape-client.ts starts it)');

const send = (message: FromWorker) => port.postMessage(message);
const engine = new ScrapeEngine(send);

process.on('unhandledRejection', (reason) => send({ type: 'log', level: 'error', msg: 'Unhandled rejection in the scrape worker', err: String((reason as Error)?.stack ?? reason) }));

port.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'settings':
      engine.configure(message.settings);
      break;
    case 'targets':
      engine.setTargets(message.targets);
      break;
    case 'start':
      engine.start();
      break;
    case 'round':
      engine.roundNow(message.request);
      break;
    case 'scrapeNow':
      void engine.scrapeNow(message.target).then((result) => send({ type: 'now', request: message.request, result }));
      break;
    case 'forget':
      engine.forget(message.id);
      break;
    case 'resendServices':
      engine.resendServices(message.id);
      break;
    case 'stop':
      void engine.stop().then(() => send({ type: 'stopped' }));
      break;
  }
});
send({ type: 'ready' });
