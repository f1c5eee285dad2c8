/**
 * The palette alone, with 10,000 synthetic users in its local index, a full recents list (200
 * commands and entities used, the most it keeps) and 40 aliases, and no API: what
 * bench/palette.ts measures is ranking plus rendering per keystroke, nothing else.
 */
import { createRoot } from 'react-dom/client';
import './bench.css';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import type { Api } from '../../src/api/client';
import { EntityIndex } from '../../src/app/command-host/entity-index';
import { Palette } from '../../src/app/command-host/palette';
import { createRecents } from '../../src/lib/recents';

const first = ['ann', 'bob', 'carla', 'dmitri', 'eve', 'farid', 'grace', 'hiro', 'ines', 'jon', 'kofi', 'lena', 'mateo', 'nora', 'omar', 'priya', 'quinn', 'rosa', 'sven', 'tara'];
const last = ['lee', 'smith', 'garcia', 'novak', 'okafor', 'tanaka', 'muller', 'rossi', 'kowalski', 'silva', 'nguyen', 'berg'];

const index = new EntityIndex();
index.add(
  Array.from({ length: 10_000 }, (_, i) => {
    const name = `${first[i % first.length]}.${last[Math.floor(i / first.length) % last.length]}${i}`;
    return { kind: 'user' as const, id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: name, subtitle: `${name}@example.com · user`, value: name, completion: name };
  }),
);

// Recents as a heavy user's: every one of the 200 kept entries used, commands and entities mixed.
const memory = new Map<string, string>();
const recents = createRecents({ get: (k) => memory.get(k) ?? null, set: (k, v) => void memory.set(k, v) }, 'bench');
const registry = createAppRegistry();
const entities = index.all();
for (let i = 0; i < 200; i++) {
  if (i % 2) {
    const e = entities[(i * 37) % entities.length]!;
    recents.record(`${e.kind}:${e.id}`, e);
  } else recents.record(`cmd:${registry.list()[(i * 7) % registry.list().length]!.id}`);
}
const aliases = Array.from({ length: 40 }, (_, i) => ({ name: `al${i}`, line: i % 2 ? `alert.snooze --for ${i + 1}h` : `server.show web-${i}` }));

const noApi = new Proxy({}, { get: () => async () => ({ result: { data: [], count: 0 } }) }) as Api;
const ctx: CommandContext = {
  api: noApi,
  user: { _id: 'bench', username: 'bench', email: 'bench@example.com', role: 'admin' },
  navigate: () => {},
  invalidate: async () => {},
  confirm: async () => true,
  ui: { colorMode: () => 'light', setColorMode: () => {}, open: () => {} },
  session: { signedIn: () => {}, signedOut: () => {} },
  run: async () => ({}),
};

// keydown → first DOM change of the palette (results committed) and → the frame after it.
const samples: { dom: number; frame: number }[] = [];
let t0 = 0;
document.addEventListener('keydown', () => (t0 = performance.now()), true);
const observer = new MutationObserver(() => {
  if (!t0) return;
  const start = t0;
  t0 = 0;
  const dom = performance.now() - start;
  requestAnimationFrame(() => samples.push({ dom, frame: performance.now() - start }));
});
(window as unknown as { __bench: unknown }).__bench = { samples, indexed: index.size, recents: recents.top(1000).length, aliases: aliases.length };

createRoot(document.getElementById('root')!).render(<Palette registry={registry} ctx={ctx} index={index} recents={recents} aliases={aliases} fetchEntities={false} onRun={() => {}} onClose={() => {}} />);
const wait = setInterval(() => {
  const el = document.querySelector('[cmdk-root]');
  if (!el) return;
  clearInterval(wait);
  observer.observe(el, { subtree: true, childList: true, attributes: true, characterData: true });
  document.body.dataset.ready = 'true';
}, 20);
