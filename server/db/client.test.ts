import { afterEach, expect, it } from 'vitest';
import { createPglite } from './client';

const saved = process.env.PGLITE_SHARED_BUFFERS;
afterEach(() => {
  if (saved === undefined) delete process.env.PGLITE_SHARED_BUFFERS;
  else process.env.PGLITE_SHARED_BUFFERS = saved;
});

async function sharedBuffers(): Promise<string> {
  const pg = await createPglite();
  try {
    return ((await pg.query<{ shared_buffers: string }>('show shared_buffers')).rows[0]!).shared_buffers;
  } finally {
    await pg.close();
  }
}

it('starts PGlite with 32 MB of shared buffers (initdb writes 128 MB), or what PGLITE_SHARED_BUFFERS says', async () => {
  delete process.env.PGLITE_SHARED_BUFFERS;
  expect(await sharedBuffers()).toBe('32MB');
  process.env.PGLITE_SHARED_BUFFERS = '48MB';
  expect(await sharedBuffers()).toBe('48MB');
});

it('refuses a PGLITE_SHARED_BUFFERS that is not a size, naming it', async () => {
  process.env.PGLITE_SHARED_BUFFERS = 'lots';
  await expect(createPglite()).rejects.toThrow("PGLITE_SHARED_BUFFERS must be a size such as 32MB, got 'lots'");
});
