import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Dialog, Heading, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { Button } from './button';
import { cx } from './cx';
import { Skeleton } from './skeleton';
import { Icon } from './icons';

export interface DrawerProps {
  title: ReactNode;
  /** Accessible name when the title is not plain text (e.g. an inline editor). */
  ariaLabel?: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Buttons in the header, beside Close (a drawer's main commands); on a phone they take a row under the title. */
  actions?: ReactNode;
  /** SPEC §9: drawers are 756 px wide (full width on small screens). */
  width?: number;
  side?: 'right' | 'left';
}

export function Drawer({ title, ariaLabel, isOpen, onOpenChange, children, footer, actions, width = 756, side = 'right' }: DrawerProps) {
  return (
    <ModalOverlay isOpen={isOpen} onOpenChange={onOpenChange} isDismissable className="fixed inset-0 z-40 bg-slate-900/40">
      <AriaModal
        style={{ width: `min(${width}px, 100vw)` }}
        className={cx('fixed top-0 bottom-0 flex flex-col bg-white shadow-2xl dark:bg-slate-900', side === 'right' ? 'right-0' : 'left-0')}
      >
        <Dialog aria-label={ariaLabel} className="flex h-full flex-col outline-none">
          <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-b border-slate-200 px-5 py-3 dark:border-slate-700">
            <Heading slot={ariaLabel ? undefined : 'title'} className="min-w-0 flex-1 text-lg font-semibold">
              {title}
            </Heading>
            {actions && (
              <div role="group" aria-label="Actions" className="order-last flex w-full flex-wrap items-center gap-2 sm:order-none sm:w-auto">
                {actions}
              </div>
            )}
            <Button variant="ghost" size="sm" round aria-label="Close" onPress={() => onOpenChange(false)}>
              <Icon name="close" />
            </Button>
          </div>
          <div className="flex-1 overflow-y-auto px-5 py-4">{children}</div>
          {footer && <DrawerFooter>{footer}</DrawerFooter>}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}

/**
 * The footer of a drawer that holds one form: Cancel on the right beside the form's submit
 * button, which shows `busyLabel` and is disabled while the form is sending.
 */
export function FormDrawerFooter({ formId, label, busyLabel, busy, isDisabled, onCancel }: { formId: string; label: string; busyLabel: string; busy: boolean; isDisabled?: boolean; onCancel: () => void }) {
  return (
    <>
      <span />
      <div className="flex gap-2">
        <Button onPress={onCancel}>Cancel</Button>
        <Button type="submit" form={formId} variant="primary" isDisabled={busy || !!isDisabled}>
          {busy ? busyLabel : label}
        </Button>
      </div>
    </>
  );
}

/**
 * A create or update drawer around one form (server, notification group): SPEC's title, the
 * form's footer (Create / Update, busy labels), and skeleton fields while the record loads.
 * `children` is the form, with `id={formId}`.
 */
export function FormDrawer({ title, formId, mode, busy, loading, onClose, children }: { title: string; formId: string; mode: 'create' | 'edit'; busy: boolean; loading: boolean; onClose: () => void; children: ReactNode }) {
  return (
    <Drawer
      title={title}
      isOpen
      onOpenChange={(open) => !open && onClose()}
      footer={
        <FormDrawerFooter
          formId={formId}
          label={mode === 'create' ? 'Create' : 'Update'}
          busyLabel={mode === 'create' ? 'Creating…' : 'Updating…'}
          busy={busy}
          isDisabled={loading}
          onCancel={() => onClose()}
        />
      }
    >
      {loading ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-14" />
          <Skeleton className="h-14" />
          <Skeleton className="h-20" />
          <Skeleton className="h-14" />
        </div>
      ) : (
        children
      )}
    </Drawer>
  );
}

/**
 * The footer row. It publishes its height (`--drawer-footer-height`) so the toast region can
 * rise above it where an open drawer reaches the toasts' corner (styles.css `#toast-region`).
 */
function DrawerFooter({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--drawer-footer-height', `${Math.ceil(el.getBoundingClientRect().height)}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--drawer-footer-height');
    };
  }, []);
  return (
    <div ref={ref} data-drawer-footer className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-700">
      {children}
    </div>
  );
}
