// `headers`: a check's request headers often carry credentials (Authorization).
// `webhook` and `topic` (issue 15): a webhook URL carries its key; an ntfy topic is its password.
// `code` (issue 27 §2): a contact method's verification code proves who holds the method.
/** Input fields the shared log never holds: their values, and their place in a recorded command line. */
export const SECRET_KEYS = /password|secret|token|key|headers|webhook|topic|^code$/i;

/** Never write a password into the shared log. */
export function redactInput(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(redactInput);
  if (input && typeof input === 'object') {
    return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '••••' : redactInput(v)]));
  }
  return input;
}
