import type { AnyCommand } from '../../../commands/define-command';
import { Modal } from '../../components/ui/modal';
import { shortcutLabel } from './hotkeys';

/**
 * "?": every shortcut, generated from the registry, grouped by category: the global ones and
 * the keys a screen binds where they apply (`screenKeys`, with where they work).
 */
export function ShortcutOverview({ commands, onClose }: { commands: readonly AnyCommand[]; onClose: () => void }) {
  const withKeys = commands.filter((c) => c.shortcut || c.screenKeys);
  const categories = [...new Set(withKeys.map((c) => c.category))];
  return (
    <Modal title="Keyboard shortcuts" isOpen onOpenChange={(open) => !open && onClose()} width={560}>
      <div className="grid gap-4">
        {categories.map((category) => (
          <section key={category}>
            <h3 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">{category}</h3>
            <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
              {withKeys
                .filter((c) => c.category === category)
                .map((c) => (
                  <div key={c.id} className="contents">
                    <dt className="text-slate-800 dark:text-slate-100">
                      {c.title}
                      {!c.shortcut && c.screenKeys && <span className="text-slate-500 dark:text-slate-400"> ({c.screenKeys.where})</span>}
                    </dt>
                    <dd>
                      <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800">
                        {shortcutLabel(c.shortcut ?? c.screenKeys!.keys)}
                      </kbd>
                    </dd>
                  </div>
                ))}
            </dl>
          </section>
        ))}
      </div>
    </Modal>
  );
}
