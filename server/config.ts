import { z } from 'zod';

const bool = z
  .string()
  .optional()
  .transform((v) => v === '1' || v?.toLowerCase() === 'true');

/** Every environment variable Opsdeck reads, with its default (README "Configuration"). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.string().default('admin@opsdeck.local'),
  ADMIN_PASSWORD: z.string().default('opsdeck-admin'),
  ADMIN_USERNAME: z.string().default('admin'),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: bool,
  SIGNIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SKIP_UI_BUILD: bool,
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  admin: { email: string; password: string; username: string };
  sessionTtlMs: number;
  cookieSecure: boolean;
  signinRateLimit: number;
  logLevel: string;
  skipUiBuild: boolean;
  /** Where the built UI lives; undefined serves no UI (API-only tests). */
  uiDir?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = configSchema.parse(env);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL || undefined,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, username: e.ADMIN_USERNAME },
    sessionTtlMs: e.SESSION_TTL_HOURS * 3_600_000,
    cookieSecure: e.COOKIE_SECURE,
    signinRateLimit: e.SIGNIN_RATE_LIMIT,
    logLevel: e.LOG_LEVEL,
    skipUiBuild: e.SKIP_UI_BUILD,
    uiDir: 'dist',
  };
}

/** Defaults for tests: in-memory database, quiet logs, no UI. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', uiDir: undefined, ...overrides };
}
