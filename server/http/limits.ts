/** Largest request body any call accepts (the biggest real one, a full alert config, is a few KB). */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Deepest JSON nesting any call accepts: our deepest body (a list filter) is 4 levels. */
export const MAX_JSON_DEPTH = 32;
