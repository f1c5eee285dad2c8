import { useState } from 'react';
import { DropZone, FileTrigger, Text, type FileDropItem } from 'react-aria-components';
import { Button } from './button';
import { cx } from './cx';

export interface FileDropProps {
  /** What the zone takes, for its accessible name: "Drop an iCalendar file". */
  label: string;
  /** The words inside the zone. */
  hint: string;
  /** The picker's button text. */
  buttonLabel: string;
  /** Extensions and types the picker offers (".ics", "text/calendar"); a drop takes any file (an .ics often comes without a type), and the reader of its text judges it. */
  accept: readonly string[];
  /** The largest file read, in bytes; a larger one is refused here with the reason. */
  maxBytes: number;
  /** Called with the chosen or dropped file's text. */
  onText: (text: string, name: string) => void;
  disabledReason?: string | false;
}

/**
 * A file by picker or by drop (react-aria's FileTrigger and DropZone): one file is read as text
 * and handed on. The drop zone is focusable and takes a paste too, as react-aria makes it.
 */
export function FileDrop({ label, hint, buttonLabel, accept, maxBytes, onText, disabledReason }: FileDropProps) {
  const [error, setError] = useState('');
  const take = async (file: { name: string; size?: number; text: () => Promise<string> }) => {
    if (file.size !== undefined && file.size > maxBytes) {
      setError(`${file.name} is ${Math.ceil(file.size / 1024)} KB; the largest file taken is ${Math.floor(maxBytes / 1024)} KB`);
      return;
    }
    try {
      const text = await file.text();
      setError('');
      onText(text, file.name);
    } catch (err) {
      setError(`Could not read ${file.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <DropZone
      aria-label={label}
      data-file-drop
      isDisabled={!!disabledReason}
      onDrop={async (e) => {
        const item = e.items.find((i): i is FileDropItem => i.kind === 'file');
        if (!item) return setError('Drop a file');
        const file = await item.getFile();
        await take({ name: item.name, size: file.size, text: () => file.text() });
      }}
      className={({ isDropTarget, isFocusVisible }) =>
        cx(
          'flex flex-col items-start gap-2 rounded-lg border-2 border-dashed border-slate-300 p-3 text-sm text-slate-600 outline-none sm:flex-row sm:items-center dark:border-slate-700 dark:text-slate-400',
          isDropTarget && 'border-blue-500 bg-blue-50 dark:bg-blue-950',
          isFocusVisible && 'ring-2 ring-blue-500',
        )
      }
    >
      <Text slot="label" className="mr-auto">
        {hint}
      </Text>
      <FileTrigger acceptedFileTypes={accept} onSelect={(files) => files?.[0] && void take(files[0])}>
        <Button size="sm" disabledReason={disabledReason}>
          {buttonLabel}
        </Button>
      </FileTrigger>
      {error && (
        <p role="alert" className="w-full text-xs text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </DropZone>
  );
}
