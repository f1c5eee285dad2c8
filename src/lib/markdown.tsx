import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/**
 * Markdown from the API (alert descriptions, summaries, operators' notes) rendered safely:
 * raw HTML is dropped (skipHtml) and react-markdown's default URL filter removes
 * `javascript:` and other unsafe links; links open in a new tab without an opener.
 */
const inlineComponents: Components = {
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
      <Markdown skipHtml components={inlineComponents}>
        {children}
      </Markdown>
    </div>
  );
}

/**
 * Command results and notices: our messages bold names and quote commands in code, and the
 * names are others' text (a username, a group name, a hostname). Only that markup is kept; a
 * link, an image, a heading or HTML in a name shows as its text.
 */
const COMMAND_ELEMENTS = ['p', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'br'];
export function CommandMarkdown({ children }: { children: string }) {
  return (
    <Markdown skipHtml allowedElements={COMMAND_ELEMENTS} unwrapDisallowed components={inlineComponents}>
      {children}
    </Markdown>
  );
}

/**
 * Markdown rendered safely, with GitHub tables: raw HTML in the text is dropped (no
 * rehype-raw), react-markdown's URL filter removes `javascript:` and the like, and links open
 * in a new tab without giving it this window. The project has no typography plugin, so each
 * element gets its look here once.
 */
const components: Components = {
  h1: ({ node: _n, ...p }) => <h1 className="mt-2 mb-3 text-xl font-semibold" {...p} />,
  h2: ({ node: _n, ...p }) => <h2 className="mt-6 mb-2 border-b border-slate-200 pb-1 text-lg font-semibold dark:border-slate-700" {...p} />,
  h3: ({ node: _n, ...p }) => <h3 className="mt-4 mb-2 text-base font-semibold" {...p} />,
  p: ({ node: _n, ...p }) => <p className="my-2" {...p} />,
  ul: ({ node: _n, ...p }) => <ul className="my-2 list-disc space-y-1 pl-6" {...p} />,
  ol: ({ node: _n, ...p }) => <ol className="my-2 list-decimal space-y-1 pl-6" {...p} />,
  blockquote: ({ node: _n, ...p }) => <blockquote className="my-1 border-l-4 border-slate-300 pl-3 text-slate-600 dark:border-slate-600 dark:text-slate-300" {...p} />,
  code: ({ node: _n, ...p }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.9em] dark:bg-slate-800" {...p} />,
  pre: ({ node: _n, ...p }) => <pre className="my-2 overflow-x-auto rounded bg-slate-100 p-3 text-sm dark:bg-slate-800" {...p} />,
  a: ({ node: _n, ...p }) => <a className="text-blue-600 underline dark:text-blue-400" target="_blank" rel="noopener noreferrer" {...p} />,
  table: ({ node: _n, ...p }) => (
    <div className="my-3 overflow-x-auto">
      <table className="min-w-full border-collapse text-sm" {...p} />
    </div>
  ),
  th: ({ node: _n, ...p }) => <th className="border border-slate-200 bg-slate-50 px-2 py-1 text-left font-semibold dark:border-slate-700 dark:bg-slate-800" {...p} />,
  td: ({ node: _n, ...p }) => <td className="border border-slate-200 px-2 py-1 align-top dark:border-slate-700" {...p} />,
};

export function MarkdownView({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {children}
      </Markdown>
    </div>
  );
}

/** Links a public post may carry: absolute http(s) and mailto only (no relative paths into the console, no scripts). */
export function publicUrl(url: string): string | null {
  return /^(https?:\/\/|mailto:)/i.test(url.trim()) ? url.trim() : null;
}

const publicComponents: Components = {
  ...components,
  // A link the filter dropped shows as its text; kept links never get this window or a referrer.
  a: ({ node: _n, href, children }) =>
    href ? (
      <a className="text-blue-600 underline dark:text-blue-400" href={href} target="_blank" rel="nofollow noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  // No remote images: a visitor's browser fetches nothing a post names.
  img: ({ node: _n, alt }) => <span>{alt ? `[image: ${alt}]` : '[image]'}</span>,
};

/**
 * Incident posts on the public status pages (issue 16 §3): markdown without raw HTML (skipHtml,
 * no rehype-raw), links only to http, https and mailto addresses, no images.
 */
export function PublicMarkdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={className}>
      <Markdown remarkPlugins={[remarkGfm]} skipHtml urlTransform={(url) => publicUrl(url)} components={publicComponents}>
        {children}
      </Markdown>
    </div>
  );
}
