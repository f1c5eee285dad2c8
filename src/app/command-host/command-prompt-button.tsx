import { useState } from 'react';
import type { CommandId, CommandInput } from '../../../commands';
import type { ArgSpec } from '../../../commands/define-command';
import type { ButtonProps } from '../../components/ui/button';
import { PopoverForm } from '../../components/ui/popover-form';
import { TextField } from '../../components/ui/text-field';
import { useCommandRunner } from './run-command';

export interface CommandPromptButtonProps<K extends CommandId> extends Omit<ButtonProps, 'onPress' | 'children' | 'disabledReason'> {
  command: K;
  /** What the screen knows (the open alert); the form asks for the command's other text arguments. */
  given: Partial<CommandInput<K>>;
  children?: string;
  disabledReason?: string | false;
}

/**
 * A button bound to a command that needs words from the person (a note): it opens a small form
 * with the command's remaining arguments, labelled as the command declares them, and submits
 * them through the gate — like CommandButton, but usable inside a modal drawer, where the palette
 * cannot take the focus. The title and the disabled reason come from the registry.
 */
export function CommandPromptButton<K extends CommandId>({ command, given, children, disabledReason, ...props }: CommandPromptButtonProps<K>) {
  const runner = useCommandRunner();
  const def = runner.get(command);
  const allowed = runner.check(command);
  const reason = allowed !== true ? allowed : disabledReason;
  const asks = ((def?.args ?? []) as ArgSpec[]).filter((a) => !(a.name in given) && (a.kind === 'text' || a.kind === 'number'));
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <PopoverForm
      trigger={children ?? def?.title ?? command}
      triggerProps={{ ...props, disabledReason: reason }}
      title={def?.title ?? command}
      submitLabel={children ?? def?.title ?? command}
      onSubmit={async () => {
        const typed = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
        const result = await runner.run(command, { ...given, ...typed } as CommandInput<K>);
        if (result) setValues({});
        return result !== null;
      }}
    >
      {asks.map((a, i) => (
        <TextField
          key={a.name}
          label={a.optional ? `${a.label} (optional)` : a.label}
          placeholder={a.placeholder}
          value={values[a.name] ?? ''}
          onChange={(v) => setValues((prev) => ({ ...prev, [a.name]: v }))}
          autoFocus={i === 0}
          isRequired={!a.optional}
        />
      ))}
    </PopoverForm>
  );
}
