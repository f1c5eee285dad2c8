/**
 * The notification group's email list as a person edits it (SPEC §4: a tag input; §5: empty
 * input ignored). Pure, so the drawer's tag input and the group.add-email / group.remove-email
 * commands agree on what "add" and "remove" mean.
 */

/** Mirrors the contract's email rule (server/contract/alerts.ts); a unit test keeps them in step. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;
export const invalidEmailMessage = (entries: readonly string[]) =>
  entries.length === 1 ? `"${entries[0]}" is not an email address like name@example.com` : `Not email addresses like name@example.com: ${entries.map((e) => `"${e}"`).join(', ')}`;

/** Pasted lists ("a@x.com, b@y.com") become several entries. */
export function splitEmails(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

export interface AddEmailsOutcome {
  list: string[];
  /** What the input should hold afterwards: empty, or the entries that were not addresses, to fix. */
  input: string;
  added: string[];
  /** Already on the list (case-insensitively): ignored, not an error. */
  duplicates: string[];
  invalid: string[];
  /** Set when something typed could not be added. */
  error?: string;
}

export function addEmails(list: readonly string[], input: string): AddEmailsOutcome {
  const entries = splitEmails(input);
  const next = [...list];
  const seen = new Set(list.map((e) => e.toLowerCase()));
  const added: string[] = [];
  const duplicates: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    if (!EMAIL_PATTERN.test(entry)) invalid.push(entry);
    else if (seen.has(entry.toLowerCase())) duplicates.push(entry);
    else {
      seen.add(entry.toLowerCase());
      next.push(entry);
      added.push(entry);
    }
  }
  // An empty input changes nothing and keeps whatever whitespace was typed out of the way.
  if (!entries.length) return { list: [...list], input: '', added, duplicates, invalid };
  return { list: next, input: invalid.join(' '), added, duplicates, invalid, ...(invalid.length ? { error: invalidEmailMessage(invalid) } : {}) };
}

export function removeEmail(list: readonly string[], email: string): string[] {
  const k = email.trim().toLowerCase();
  return list.filter((e) => e.toLowerCase() !== k);
}

export function hasEmail(list: readonly string[], email: string): boolean {
  const k = email.trim().toLowerCase();
  return list.some((e) => e.toLowerCase() === k);
}

/** Avatar initials: "ann.lee@x" → "AL", "ops@x" → "OP". */
export function emailInitials(email: string): string {
  const local = email.split('@')[0] ?? '';
  const parts = local.split(/[._\-+]+/).filter((p) => /[a-z0-9]/i.test(p));
  const letters = parts.length >= 2 ? parts[0]![0]! + parts[1]![0]! : (parts[0] ?? local).replace(/[^a-z0-9]/gi, '').slice(0, 2);
  return (letters || '?').toUpperCase();
}

/** A stable colour per address, so the same person looks the same in every row. */
export function emailHue(email: string): number {
  let h = 0;
  for (const c of email.toLowerCase()) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h % 360;
}
