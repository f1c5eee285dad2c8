import { createLink, type LinkComponent } from '@tanstack/react-router';
import { forwardRef, type AnchorHTMLAttributes } from 'react';
import { cx } from './cx';

export type LinkButtonVariant = 'primary' | 'secondary' | 'link';

const variants: Record<LinkButtonVariant, string> = {
  primary: 'h-9 px-3.5 bg-blue-600 text-white hover:bg-blue-700',
  secondary: 'h-9 px-3.5 border border-slate-300 bg-white hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700',
  // A row's action in a table ("Edit", "Show"): quiet until hovered.
  link: 'h-8 px-2.5 text-blue-700 hover:bg-blue-50 dark:text-blue-400 dark:hover:bg-slate-800',
};

interface LinkButtonAnchorProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  variant?: LinkButtonVariant;
  /**
   * Why the link cannot be followed now, shown as its tooltip; `false` when it can. Given at all,
   * the link sits in a span that carries the tooltip (a disabled link takes no pointer events).
   */
  disabledReason?: string | false;
  /** Set by the router's Link: no address to go to. */
  disabled?: boolean;
}

const LinkButtonAnchor = forwardRef<HTMLAnchorElement, LinkButtonAnchorProps>(function LinkButtonAnchor({ variant = 'primary', disabledReason, disabled, className, ...props }, ref) {
  const a = (
    <a
      ref={ref}
      {...props}
      className={cx(
        'inline-flex items-center rounded-md text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-blue-500',
        variant !== 'link' && 'focus-visible:ring-offset-1 dark:focus-visible:ring-offset-slate-900',
        variants[variant],
        disabled && 'pointer-events-none opacity-50',
        className,
      )}
    />
  );
  return disabledReason === undefined ? a : <span title={disabledReason || undefined}>{a}</span>;
});

const RouterLinkButton = createLink(LinkButtonAnchor);

/** A router link that looks like a button: for actions that are places (Add server opens /servers/create). */
export const LinkButton: LinkComponent<typeof LinkButtonAnchor> = (props) => <RouterLinkButton {...props} {...(props.disabledReason ? { disabled: true } : {})} />;
