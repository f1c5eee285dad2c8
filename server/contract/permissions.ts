/**
 * Who may do what. SPEC §6 leaves the rules open; this is our decision (docs/decisions.md).
 * The server enforces it on every route; the web app and the command registry read the same
 * table to hide or disable what a role cannot do, and to say why.
 */
export const roles = ['admin', 'sysadmin', 'user'] as const;
export type Role = (typeof roles)[number];
export const roleLabels: Record<Role, string> = { admin: 'Admin', sysadmin: 'sysadmin', user: 'User' };

export const permissions = {
  /** dashboard, servers, alerts, groups, own account, command history */
  read: ['admin', 'sysadmin', 'user'],
  /** change an alert's status and add notes */
  'alerts.triage': ['admin', 'sysadmin', 'user'],
  /** delete alerts; edit servers, maintenance, agent set-up, alert rules, notification groups */
  'alerts.delete': ['admin', 'sysadmin'],
  'servers.write': ['admin', 'sysadmin'],
  'rules.write': ['admin', 'sysadmin'],
  'groups.write': ['admin', 'sysadmin'],
  /** create, edit, pause, run and delete checks (the server fetches URLs they name: issue 16) */
  'checks.write': ['admin', 'sysadmin'],
  /** create, edit and delete on-call schedules, their layers, overrides, swaps and feed URLs (issue 27) */
  'oncall.write': ['admin', 'sysadmin'],
  /** compose public status pages (issue 16 §3): what the world sees */
  'status.write': ['admin'],
  /** post and resolve incident updates on status pages */
  'status.post': ['admin', 'sysadmin'],
  /** list and view users */
  'users.read': ['admin', 'sysadmin'],
  /** create, edit, delete users */
  'users.write': ['admin'],
  /** console-wide settings (who gets "Monitoring backend unreachable") */
  'settings.write': ['admin'],
} as const satisfies Record<string, readonly Role[]>;
export type Permission = keyof typeof permissions;

export function can(role: Role | undefined | null, permission: Permission): boolean {
  return !!role && (permissions[permission] as readonly Role[]).includes(role);
}

/** A sentence a person can read, for disabled buttons and refused commands. */
export function whyNot(permission: Permission): string {
  const allowed = permissions[permission].map((r) => roleLabels[r]).join(' or ');
  return `Only ${allowed} accounts can do this.`;
}
