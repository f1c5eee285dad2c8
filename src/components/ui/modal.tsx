import type { ReactNode } from 'react';
import { Dialog, Heading, Modal as AriaModal, ModalOverlay } from 'react-aria-components';
import { Button } from './button';
import { cx } from './cx';
import { Icon } from './icons';

export interface ModalProps {
  title: string;
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
  footer?: ReactNode;
  width?: number;
  /** alertdialog for confirmations: Escape still cancels, clicking outside does not. */
  role?: 'dialog' | 'alertdialog';
}

export function Modal({ title, isOpen, onOpenChange, children, footer, width = 520, role = 'dialog' }: ModalProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable={role === 'dialog'}
      className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-900/40 p-4 pt-[10vh]"
    >
      <AriaModal style={{ maxWidth: width }} className="w-full rounded-lg bg-white shadow-xl dark:bg-slate-900">
        <Dialog role={role} className="outline-none">
          <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3 dark:border-slate-700">
            <Heading slot="title" className="text-base font-semibold">
              {title}
            </Heading>
            {role === 'dialog' && (
              <Button variant="ghost" size="sm" round aria-label="Close" onPress={() => onOpenChange(false)}>
                <Icon name="close" />
              </Button>
            )}
          </div>
          <div className="px-5 py-4">{children}</div>
          {footer && <div className="flex justify-end gap-2 border-t border-slate-200 px-5 py-3 dark:border-slate-700">{footer}</div>}
        </Dialog>
      </AriaModal>
    </ModalOverlay>
  );
}

export interface ConfirmDialogProps {
  title: string;
  message: string;
  /** What the answer applies to, by name ("ann · ann@example.com"): shown on its own line. */
  target?: string;
  confirmLabel?: string;
  cancelLabel?: string;
  isOpen: boolean;
  onAnswer: (ok: boolean) => void;
  danger?: boolean;
}

/**
 * A confirmation. For a dangerous answer the safe choice has the focus, so Enter (or a key held
 * down from the palette) declines; the dangerous one takes a deliberate Tab or a click. Neutral
 * confirmations (`danger={false}`) focus their confirm button.
 */
export function ConfirmDialog({ title, message, target, confirmLabel = 'OK', cancelLabel = 'Cancel', isOpen, onAnswer, danger = true }: ConfirmDialogProps) {
  return (
    <Modal
      title={title}
      role="alertdialog"
      width={420}
      isOpen={isOpen}
      onOpenChange={(open) => !open && onAnswer(false)}
      footer={
        <>
          <Button autoFocus={danger} onPress={() => onAnswer(false)}>
            {cancelLabel}
          </Button>
          <Button autoFocus={!danger} variant={danger ? 'danger' : 'primary'} onPress={() => onAnswer(true)}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p className={cx('text-sm text-slate-700 dark:text-slate-300')}>{message}</p>
      {target && (
        <p className="mt-2 rounded-md bg-slate-100 px-3 py-2 text-sm font-medium break-words text-slate-900 dark:bg-slate-800 dark:text-slate-100" aria-label="Target">
          {target}
        </p>
      )}
    </Modal>
  );
}
