import { emailHue, emailInitials } from '../../lib/email-list';

const SHOWN = 3;

/**
 * SPEC §2 Email List column: avatars. Initials in a circle coloured per address; the address is
 * the tooltip and the accessible name. Beyond three, a "+n" circle names the rest.
 */
export function EmailAvatars({ emails }: { emails: readonly string[] }) {
  if (!emails.length) return <span className="text-slate-500 dark:text-slate-400">--</span>;
  const rest = emails.slice(SHOWN);
  const circle = 'inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full border-2 border-white text-[11px] font-semibold dark:border-slate-950';
  return (
    <div className="flex -space-x-1.5" role="list" aria-label={`${emails.length} email${emails.length === 1 ? '' : 's'}`}>
      {emails.slice(0, SHOWN).map((e) => (
        <span key={e} role="listitem" className="inline-flex">
          <span
            role="img"
            aria-label={e}
            title={e}
            className={circle}
            style={{ backgroundColor: `hsl(${emailHue(e)} 70% 88%)`, color: `hsl(${emailHue(e)} 60% 25%)` }}
          >
            {emailInitials(e)}
          </span>
        </span>
      ))}
      {rest.length > 0 && (
        <span role="listitem" className="inline-flex">
          <span role="img" aria-label={`${rest.length} more: ${rest.join(', ')}`} title={rest.join('\n')} className={`${circle} bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-100`}>
            +{rest.length}
          </span>
        </span>
      )}
    </div>
  );
}
