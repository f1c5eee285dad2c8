import { useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Popover } from 'react-aria-components';
import { Button, type ButtonProps } from './button';

export interface PopoverFormProps {
  /** The button that opens the form. */
  trigger: ReactNode;
  triggerProps?: Omit<ButtonProps, 'children' | 'onPress'>;
  /** The form's heading and accessible name, e.g. "Resolve alert". */
  title: string;
  submitLabel: string;
  /** The fields; the form submits with Enter or the submit button. */
  children: ReactNode;
  /** Resolves true when done (the popover closes), false to keep it open (the failure was reported). */
  onSubmit: () => Promise<boolean>;
}

/**
 * A small form in a popover beside its button, for what one action needs to be told (a note):
 * inside a modal drawer, where a panel drawn outside it (the palette) would be inert.
 */
export function PopoverForm({ trigger, triggerProps, title, submitLabel, children, onSubmit }: PopoverFormProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      if (await onSubmit()) setOpen(false);
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button {...triggerProps}>{trigger}</Button>
      <Popover placement="bottom end" className="w-80 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white p-3 shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <Dialog aria-label={title} className="outline-none">
          <form onSubmit={submit} className="space-y-3" noValidate>
            <Heading slot="title" className="text-sm font-semibold">
              {title}
            </Heading>
            {children}
            <div className="flex justify-end gap-2">
              <Button size="sm" onPress={() => setOpen(false)}>
                Cancel
              </Button>
              <Button size="sm" type="submit" variant="primary" isDisabled={busy}>
                {submitLabel}
              </Button>
            </div>
          </form>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
