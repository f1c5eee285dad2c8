import { useState } from 'react';
import { CommandButton } from '../../app/command-host/command-button';
import { CopyButton } from '../../components/ui/copy-button';
import { TextField } from '../../components/ui/text-field';

const urlOf = (data: unknown) => (data && typeof data === 'object' && 'url' in data && typeof data.url === 'string' ? data.url : null);

/** A feed URL just made: shown once (only its hash is kept), read-only and copyable. */
function FeedUrl({ url, what }: { url: string; what: string }) {
  return (
    <div className="space-y-1">
      <div className="flex items-end gap-1">
        <TextField label={`${what} URL`} value={url} isReadOnly className="min-w-0 flex-1" inputClassName="font-mono text-xs" />
        <span className="pb-1.5">
          <CopyButton value={url} label={`${what} URL`} />
        </span>
      </div>
      <p className="text-xs text-amber-800 dark:text-amber-300">Copy it now: it is shown only this once. Anyone with it can read the calendar.</p>
    </div>
  );
}

/**
 * A schedule's secret iCalendar feed (issue 27 §6) through `schedule.feed`: make one, replace it
 * (the old URL stops working) or revoke it. The URL is shown when made, never again.
 */
export function ScheduleFeed({ schedule, name, hasFeed }: { schedule: string; name: string; hasFeed: boolean }) {
  const [url, setUrl] = useState<string | null>(null);
  return (
    <section aria-labelledby="schedule-feed-heading" className="space-y-2">
      <h2 id="schedule-feed-heading" className="text-lg font-semibold">
        Calendar feed
      </h2>
      <p className="text-xs text-slate-600 dark:text-slate-400">Subscribe to {name}’s final schedule from any calendar app with a secret URL. Making a new URL stops the old one.</p>
      {url ? <FeedUrl url={url} what={`Calendar feed of ${name}`} /> : <p className="text-sm">{hasFeed ? 'This schedule has a feed URL; it was shown when it was made.' : 'No feed URL yet.'}</p>}
      <div className="flex flex-wrap gap-2">
        <CommandButton command="schedule.feed" input={{ schedule }} onDone={(r) => setUrl(urlOf(r.data))}>
          {hasFeed ? 'Replace feed URL' : 'Make feed URL'}
        </CommandButton>
        {hasFeed && (
          <CommandButton command="schedule.feed" input={{ schedule, revoke: true }} variant="danger-ghost" onDone={() => setUrl(null)}>
            Revoke feed URL
          </CommandButton>
        )}
      </div>
    </section>
  );
}

/** The signed-in person's own feed of their shifts in every schedule, through `oncall.my-feed`. */
export function MyFeed() {
  const [url, setUrl] = useState<string | null>(null);
  return (
    <section aria-labelledby="my-feed-heading" className="space-y-2">
      <h2 id="my-feed-heading" className="text-lg font-semibold">
        My calendar feed
      </h2>
      <p className="text-xs text-slate-600 dark:text-slate-400">Your own on-call shifts in every schedule, as a secret URL for any calendar app. Making a new URL stops the old one.</p>
      {url && <FeedUrl url={url} what="My calendar feed" />}
      <div className="flex flex-wrap gap-2">
        <CommandButton command="oncall.my-feed" input={{}} onDone={(r) => setUrl(urlOf(r.data))}>
          {url ? 'Replace my feed URL' : 'Make my feed URL'}
        </CommandButton>
        <CommandButton command="oncall.my-feed" input={{ revoke: true }} variant="danger-ghost" onDone={() => setUrl(null)}>
          Revoke my feed URL
        </CommandButton>
      </div>
    </section>
  );
}
