import { parseAlertText, toPlainText } from '../../server/contract/alert-text';

/**
 * An alert's description (issue 11 §3) as text: the runs of server/contract/alert-text.ts, our
 * figures bold and a host's own text as code, never parsed as markdown, so a service named like
 * a link, an image, a heading or HTML shows as its characters. Used by the notifications screen
 * (drawer, table) and the dashboard's Instance Down card.
 */
export function AlertText({ markdown, className }: { markdown: string | null | undefined; className?: string }) {
  if (!markdown) return null;
  const doc = parseAlertText(markdown);
  return (
    <div className={className ?? 'space-y-1 text-sm break-words'} title={toPlainText(doc)} data-alert-text>
      {doc.map((paragraph, i) => (
        <p key={i} className="my-0">
          {paragraph.map((run, j) => {
            const inner = run.code ? (
              <code key={j} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] break-all dark:bg-slate-800">
                {run.text}
              </code>
            ) : (
              run.text
            );
            return run.strong ? <strong key={j}>{inner}</strong> : <span key={j}>{inner}</span>;
          })}
        </p>
      ))}
    </div>
  );
}
