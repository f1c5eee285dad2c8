import Markdown, { type Components } from 'react-markdown';

/**
 * Markdown from the API (alert descriptions, summaries, operators' notes) rendered safely:
 * raw HTML is dropped (skipHtml) and react-markdown's default URL filter removes
 * `javascript:` and other unsafe links; links open in a new tab without an opener.
 */
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer nofollow" className="text-blue-700 underline dark:text-blue-400" />,
  img: ({ node: _node, alt }) => <span>{alt ? `[image: ${alt}]` : '[image]'}</span>,
  ul: ({ node: _node, ...props }) => <ul {...props} className="list-disc pl-5" />,
  ol: ({ node: _node, ...props }) => <ol {...props} className="list-decimal pl-5" />,
  code: ({ node: _node, ...props }) => <code {...props} className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800" />,
  pre: ({ node: _node, ...props }) => <pre {...props} className="overflow-x-auto rounded bg-slate-100 p-2 dark:bg-slate-800" />,
};

export function SafeMarkdown({ children, className }: { children: string | null | undefined; className?: string }) {
  if (!children) return null;
  return (
    <div className={className ?? 'space-y-1 text-sm break-words [&_p]:my-0'}>
      <Markdown skipHtml components={components}>
        {children}
      </Markdown>
    </div>
  );
}
