/** How the API and the delivery log show a secret: enough to tell two apart, not enough to use. */
export function maskUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}/…`;
  } catch {
    return '••••';
  }
}

export const maskToken = (token: string) => (token.length >= 12 ? `••••${token.slice(-4)}` : '••••');

/** Replaces every secret value (and its URL-encoded form) in a text: errors and logs never carry one. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (!s || s.length < 4) continue;
    for (const form of new Set([s, encodeURIComponent(s)])) out = out.split(form).join('••••');
  }
  return out;
}
