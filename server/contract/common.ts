import { z } from 'zod';

/** SPEC §9: page size 25 by default; the server accepts up to 100 (options 25/50/75/100, selectors 100). */
export const MAX_PAGE_SIZE = 100;
/** Longest string any text field accepts; longer input is a 400, never a truncated row. */
export const MAX_TEXT = 500;

/**
 * PostgreSQL stores no NUL character in text or jsonb: a NUL that reached the database was a 500.
 * Every string the contract accepts goes through `str()`, so it is a 400 naming the field instead
 * (tests/api/contract-strings.test.ts checks every schema here uses it).
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
const noNul = (s: string) => !s.includes('\u0000');
export const str = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine(noNul, { message: NUL_MESSAGE, abort: true });


export const idSchema = str().min(1).max(64);

export const sortSchema = z.object({
  by: str().min(1).max(64),
  direction: z.enum(['asc', 'desc']),
});
export type Sort = z.infer<typeof sortSchema>;

/**
 * A filter on one field. The operators are the ones SPEC uses: contains (case-insensitive
 * substring), in (one of), eq (equals), between ([from, to], inclusive). A bare scalar means eq
 * and a bare array means in, so `{ status: 'active' }` and `{ status: { eq: 'active' } }` agree.
 */
const scalar = z.union([str().max(MAX_TEXT), z.number(), z.boolean()]);
export const filterValueSchema = z.union([
  scalar,
  z.array(scalar).max(100),
  z.object({ contains: str().max(MAX_TEXT) }).strict(),
  z.object({ in: z.array(scalar).max(100) }).strict(),
  z.object({ eq: scalar }).strict(),
  z.object({ between: z.tuple([z.union([str().max(64), z.number()]), z.union([str().max(64), z.number()])]) }).strict(),
]);
export type FilterValue = z.infer<typeof filterValueSchema>;

/** Body of `POST /api/{resource}/all` (SPEC §7 "List"). */
export const listQuerySchema = z
  .object({
    pageNumber: z.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
    sort: sortSchema.optional(),
    filter: z.record(str().max(64), filterValueSchema).optional(),
    search: str().max(MAX_TEXT).optional(),
  })
  .strict();
export type ListQuery = z.input<typeof listQuerySchema>;

export function listResultSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({ result: z.object({ data: z.array(item), count: z.number().int(), countEstimated: z.literal(true).optional() }) });
}
/** `countEstimated`: more matches than lists count exactly; `count` is an estimate (docs/decisions.md "Counts"). */
export type ListResult<T> = { result: { data: T[]; count: number; countEstimated?: true } };
export type OneResult<T> = { result: T };

/** Every error under /api answers this body; `field` names the offending input when there is one. */
export const apiErrorBodySchema = z.object({
  statusCode: z.number(),
  error: str(),
  message: str(),
  field: str().optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
