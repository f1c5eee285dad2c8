import { Button } from './button';
import { cx } from './cx';

export interface LoadErrorProps {
  /** What could not be loaded, as the screen says it: "Could not load servers." */
  title: string;
  /** The server's message. */
  detail?: string;
  /** Loads again; without it the banner offers no Retry (STYLE: the caller decides). */
  onRetry?: () => void;
  /** A retry is under way: Retry waits for it. */
  retrying?: boolean;
  /** Less padding, for a banner inside a card. */
  compact?: boolean;
  className?: string;
}

/** A failed load: what failed, the server's message, and Retry. */
export function LoadError({ title, detail, onRetry, retrying, compact, className }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className={cx(
        'flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200',
        compact ? 'p-2' : 'p-3',
        className,
      )}
    >
      <span className="mr-auto">
        <strong>{title}</strong> {detail}
      </span>
      {onRetry && (
        <Button size="sm" onPress={onRetry} isDisabled={retrying}>
          Retry
        </Button>
      )}
    </div>
  );
}
