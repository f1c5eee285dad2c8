/** The inverse of parseCommandLine: `user.show --user ann`, quoting values with spaces. */
export function commandLineFor(id: string, input: Record<string, unknown>): string {
  const parts = [id];
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null || value === '') continue;
    if (value === true) {
      parts.push(`--${name}`);
      continue;
    }
    parts.push(`--${name}`, quote(String(value)));
  }
  return parts.join(' ');
}

export function quote(value: string): string {
  return /^[^\s"'\\]+$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1')}"`;
}
