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
