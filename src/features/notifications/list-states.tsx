import { Button } from '../../components/ui/button';

export function EmptyAlerts({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return filtered ? (
    <div className="flex flex-col items-center gap-3 p-10 text-center">
      <p className="text-sm text-slate-600 dark:text-slate-400">No alerts match these filters.</p>
      <Button onPress={onClear}>Clear filters</Button>
    </div>
  ) : (
    <div className="flex flex-col items-center gap-2 p-10 text-center">
      <h2 className="text-lg font-semibold">No alerts</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">Alerts appear here when a server crosses one of its alert rules for its whole grace period.</p>
    </div>
  );
}

export function ErrorBanner({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
      <span className="mr-auto">
        <strong>Could not load alerts.</strong> {message}
      </span>
      <Button size="sm" onPress={onRetry} isDisabled={retrying}>
        Retry
      </Button>
    </div>
  );
}
