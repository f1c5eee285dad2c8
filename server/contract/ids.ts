import { z } from 'zod';

/**
 * Ids are uuids the database makes (`gen_random_uuid()`) or the server does (`randomUUID()`):
 * version 4 either way, so zod's RFC 9562 `z.uuid()` (version and variant bits checked) is the
 * test, not the looser `z.guid()` (any 8-4-4-4-12 hex). A string that fails it is never an id
 * here: callers read it as a name, or refuse it with a 400 naming the field.
 */
export const uuidSchema = z.uuid();

/** Whether a reference is an id (look the row up by id) rather than a name or a typo. */
export const isUuid = (value: string): boolean => uuidSchema.safeParse(value).success;
