/**
 * The console's icon set: Lucide's SVG icons (lucide-react), so no symbol depends on the fonts
 * of the machine showing it — a glyph such as 🔕 or ⚠ is a box where no emoji font is installed.
 * Screens take their icons from here, decorative (aria-hidden) and sized to the text beside them.
 */
import type { LucideIcon, LucideProps } from 'lucide-react';
import {
  CalendarClock,
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  Bell,
  BellOff,
  Check,
  ChevronDown,
  ChevronsLeft,
  ChevronsRight,
  CircleCheck,
  Ellipsis,
  LayoutDashboard,
  Mail,
  Menu,
  Pencil,
  Pin,
  Radio,
  RefreshCw,
  Search,
  Server,
  TriangleAlert,
  Undo2,
  Users,
  X,
} from 'lucide-react';

export type { LucideIcon };

export const icons = {
  dashboard: LayoutDashboard,
  servers: Server,
  checks: CircleCheck,
  notifications: Bell,
  groups: Mail,
  widgets: Pin,
  statusPages: Radio,
  oncall: CalendarClock,
  users: Users,
  close: X,
  refresh: RefreshCw,
  more: Ellipsis,
  chevronDown: ChevronDown,
  menu: Menu,
  search: Search,
  collapse: ChevronsLeft,
  expand: ChevronsRight,
  sortAsc: ArrowUp,
  sortDesc: ArrowDown,
  sortNone: ArrowUpDown,
  edit: Pencil,
  warning: TriangleAlert,
  done: Check,
  muted: BellOff,
  undo: Undo2,
} satisfies Record<string, LucideIcon>;

export type IconName = keyof typeof icons;

/** One icon, decorative by default (the control around it carries the name), 1em square unless sized. */
export function Icon({ name, size = '1em', className, ...props }: { name: IconName } & Omit<LucideProps, 'ref'>) {
  const Svg = icons[name];
  return <Svg aria-hidden focusable="false" size={size} strokeWidth={2} className={className ? `inline-block shrink-0 ${className}` : 'inline-block shrink-0'} data-icon={name} {...props} />;
}
