import { z } from 'zod';
import { defaultChromiumPath } from './chromium-path.js';

const csv = z.string().optional().transform(splitList);

/**
 * A comma-separated list of exact web origins (`scheme://host[:port]`, RFC 6454 §6.2, no path,
 * no trailing slash, no wildcard): what a browser sends in `Origin`, compared as text.
 */
const originList = z
  .string()
  .optional()
  .superRefine((value, context) => {
    for (const item of splitList(value)) {
      if (!isExactOrigin(item))
        context.addIssue({
          code: 'custom',
          message: `"${item}" is not an origin like https://console.example.com (scheme, host and port only)`,
        });
    }
  });

/**
 * The console's origins under `npm run console` (Vite's default port), allowed outside
 * production: by host name, for the API at its default BASE_URL (http://localhost:3000), and by
 * address, for the demo's service at http://127.0.0.1:<port>. A session cookie goes only to the
 * same site (RFC 6265bis: the host, port aside), so each pairs with an API of the same host.
 */
export const DEV_CONSOLE_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];

const booleanFlag = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/**
 * Every setting the service reads, validated once at boot (STYLE "Config, data, jobs").
 * Unset optional settings select the embedded defaults of DESIGN section 2.
 */
export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /** `api` serves HTTP, `worker` runs jobs, `all` both (DESIGN section 1). */
    ROLE: z.enum(['api', 'worker', 'all']).default('all'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    /** Public origin of the service: the OAuth issuer; the API's resource is BASE_URL + '/api/' (RFC 8707). */
    BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATA_DIR: z.string().default('.data'),
    DATABASE_URL: z.string().optional(),
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
    S3_BUCKET: z.string().min(3).optional(),
    S3_REGION: z.string().default('us-east-1'),
    S3_ENDPOINT: z.url().optional(),
    S3_FORCE_PATH_STYLE: booleanFlag,
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    S3_PREFIX: z.string().default(''),
    /** Master key(s) for envelope encryption: base64 32 bytes, or `kid:key,kid:key` (first is active). */
    MASTER_KEY: z.string().optional(),
    /** Hosts allowed for outbound provider calls besides each provider's own clouds (SSRF guard): `host` or `*.domain`. */
    PROVIDER_ALLOWED_HOSTS: csv,
    /** PEM file of an extra CA that provider calls trust (a private CA or the test simulator's). */
    PROVIDER_CA_FILE: z.string().optional(),
    /** Share of each provider rate-limit bucket left free for the tenant's own admins and integrations (0 to 0.9). */
    PROVIDER_RATE_LIMIT_HEADROOM: z.coerce.number().min(0).max(0.9).default(0.2),
    /**
     * The least share of a bucket left free while its answers show no one else used it in the current
     * window (0 to PROVIDER_RATE_LIMIT_HEADROOM); default: the provider's (Okta: 0, the reserve shrinking
     * with the window's time left). docs/backups.md "Rate limits".
     */
    PROVIDER_RATE_LIMIT_IDLE_HEADROOM: z.coerce.number().min(0).max(0.9).optional(),
    /**
     * How long a restore's write waits for the provider to replicate an object the restore just
     * created (Microsoft Graph answers it "does not exist" for seconds to minutes), seconds; 0: no wait.
     */
    PROVIDER_REPLICATION_WAIT_SECONDS: z.coerce.number().min(0).max(3600).default(300),
    /**
     * The interval the Entra connector keeps between requests to Graph's conditional access paths
     * (policies, named locations, authentication contexts), ms: Graph allows 1 request a second per
     * tenant there and answers more with 429 without `Retry-After` ("Identity protection and
     * conditional access service limits"). Lower it only against a Graph that does not enforce the
     * limit: the tests' simulator, whose throttling is off unless a test turns it on.
     */
    GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
    /** Lifetime of access tokens issued by the service's authorization server, seconds. */
    ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86400).default(600),
    DEFAULT_PLAN: z.enum(['free', 'trial', 'team', 'enterprise']).default('enterprise'),
    /** An incremental backup's base may be at most this old (hours); older forces a full run. */
    INCREMENTAL_MAX_BASE_AGE_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(24 * 7),
    /**
     * When true, a sign-in of an address with no membership and no invitation creates a team it owns
     * (docs/security.md).
     */
    SELF_SERVICE_TEAMS: booleanFlag,
    /** Lifetime of refresh tokens (authorization code grant), seconds; public clients rotate them on each use. */
    REFRESH_TOKEN_TTL: z.coerce.number().int().min(300).max(31536000).default(1209600),
    /** A signed-in session ends after this many seconds without a request (docs/auth.md). */
    SESSION_IDLE_TIMEOUT: z.coerce.number().int().min(60).max(2592000).default(3600),
    /** A signed-in session ends this many seconds after sign-in, however active (docs/auth.md). */
    SESSION_ABSOLUTE_TIMEOUT: z.coerce.number().int().min(60).max(2592000).default(43200),
    /** SMTP server for e-mail (sign-in codes): `smtp://user:pass@host:587` or `smtps://...`; unset: outbox table and log. */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** The web console's origin, for links in notification e-mail (docs/notifications.md); default BASE_URL. */
    CONSOLE_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * Origins of the separately served admin console (DESIGN section 9, docs/security.md "The
     * console"): they get CORS with credentials, and their cookie-authenticated requests pass the
     * CSRF check. Default: none in production, DEV_CONSOLE_ORIGINS otherwise; empty: none.
     */
    CONSOLE_ORIGINS: originList,
    /** The Chromium that renders PDF reports; default Debian's, else the one `npm ci` fetched for puppeteer. */
    CHROMIUM_PATH: z.string().default(() => defaultChromiumPath()),
    /** Lifetime of a report's signed download URL, seconds (docs/export.md: 15 minutes by default). */
    REPORT_URL_TTL: z.coerce.number().int().min(30).max(86_400).default(900),
    /** Sender of the service's e-mail; default `idp-backup <no-reply@BASE_URL's host>`. */
    MAIL_FROM: z.string().min(3).optional(),
    /** Sign-in through the customer's OpenID Connect provider (Okta, Entra ID): issuer URL (https), with discovery. */
    SIGN_IN_OIDC_ISSUER: z.url({ protocol: /^https$/ }).optional(),
    SIGN_IN_OIDC_CLIENT_ID: z.string().min(1).optional(),
    SIGN_IN_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** Label of the sign-in button, e.g. `Okta`. */
    SIGN_IN_OIDC_NAME: z.string().min(1).max(60).default('single sign-on'),
    /** PEM file of an extra CA trusted by sign-in's outbound HTTPS (the identity provider, client metadata documents). */
    AUTH_CA_FILE: z.string().optional(),
    /** TEST ONLY: client metadata documents may be fetched from loopback addresses (127.0.0.0/8, ::1). Default off. */
    OAUTH_CIMD_ALLOW_LOOPBACK: booleanFlag,
    /** Dynamic client registrations plus client metadata document fetches allowed per client IP per minute. */
    OAUTH_CLIENT_RATE_LIMIT: z.coerce.number().int().min(1).max(10000).default(10),
    LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
    /** `json`: one JSON object a line (Nest's JSON console logger); `pretty`: coloured text. Default: json in production. */
    LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
    /** Port of the Prometheus `GET /metrics` listener (docs/operations.md); unset: no listener. */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Address the metrics listener binds; loopback by default so it is never public by accident. */
    METRICS_HOST: z.string().default('127.0.0.1'),
    /** Per-IP rate limits of the spec's Limits section; `off` only for test suites (docs/security.md). */
    RATE_LIMITS: z.enum(['on', 'off']).default('on'),
    /** Reverse proxies in front of the service that append to X-Forwarded-For; 0 ignores the header. */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Redis shared by replicas for rate-limit counters; unset keeps them in each process's memory. */
    REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
    /** Namespace of the service's Redis keys. */
    RATE_LIMIT_KEY_PREFIX: z.string().min(1).default('idp-backup:rate-limit:'),
    /** A worker running a backup touches it this often, seconds (docs/decisions.md "Crash safety"). */
    BACKUP_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
    /**
     * A running backup not touched for this long has lost its worker and is failed by the sweep,
     * seconds; at least 3 heartbeats, and under the backup job's 2 h expiry so the sweep decides first.
     */
    BACKUP_STALE_AFTER_SECONDS: z.coerce.number().int().min(3).max(3600).default(180),
    /** How often each worker looks for stale backups, seconds. */
    BACKUP_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
    /**
     * How often a worker replica looks for queued jobs (pg-boss polling, at least every 0.5 s),
     * seconds. A job enqueued by a replica that also works its queue starts at once.
     */
    JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(300).default(1),
    /**
     * How often a restore, or a sandbox drill, looks at the backup it waits for (its pre-restore
     * backup), seconds. A check is one primary-key read and a progress write; the tests use 0.25 so
     * that a restore starts within a quarter second of its backup's end.
     */
    BACKUP_WAIT_POLL_SECONDS: z.coerce.number().min(0.05).max(60).default(1),
    /**
     * A restore preview asked for with `Prefer: respond-async` runs as a job when its backup holds
     * more records than this (docs/decisions.md): 10,000 users are 50 pages of Okta's
     * `/api/v1/users`, 5 s at its 600 requests a minute.
     */
    RESTORE_PREVIEW_SYNC_MAX_RECORDS: z.coerce.number().int().min(0).max(10_000_000).default(10_000),
    /**
     * A compliance check asked with `Prefer: respond-async` runs as a job when its backup holds
     * more records than this and no stored result answers it (docs/decisions.md): a check reads
     * every record once, about 5 µs of CPU each (`bench:compliance`: 5.6 s for 100,000 users and
     * 913,000 app assignments), so this is a check of about 5 s.
     */
    COMPLIANCE_CHECK_SYNC_MAX_RECORDS: z.coerce.number().int().min(0).max(100_000_000).default(1_000_000),
    /** How often the drift job reads each connection's change log since its last backup, seconds (docs/scores.md). */
    DRIFT_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86400).default(900),
  })
  .refine((env) => Boolean(env.S3_ACCESS_KEY_ID) === Boolean(env.S3_SECRET_ACCESS_KEY), {
    message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default chain)',
    path: ['S3_ACCESS_KEY_ID'],
  })
  .refine(
    (env) => {
      const set = [env.SIGN_IN_OIDC_ISSUER, env.SIGN_IN_OIDC_CLIENT_ID, env.SIGN_IN_OIDC_CLIENT_SECRET];
      return set.every(Boolean) || !set.some(Boolean);
    },
    {
      message:
        'set SIGN_IN_OIDC_ISSUER, SIGN_IN_OIDC_CLIENT_ID and SIGN_IN_OIDC_CLIENT_SECRET together, or none',
      path: ['SIGN_IN_OIDC_ISSUER'],
    },
  )
  .refine(
    (env) =>
      env.PROVIDER_RATE_LIMIT_IDLE_HEADROOM === undefined ||
      env.PROVIDER_RATE_LIMIT_IDLE_HEADROOM <= env.PROVIDER_RATE_LIMIT_HEADROOM,
    { message: 'must not exceed PROVIDER_RATE_LIMIT_HEADROOM', path: ['PROVIDER_RATE_LIMIT_IDLE_HEADROOM'] },
  )
  .refine((env) => env.SESSION_IDLE_TIMEOUT <= env.SESSION_ABSOLUTE_TIMEOUT, {
    message: 'must not exceed SESSION_ABSOLUTE_TIMEOUT',
    path: ['SESSION_IDLE_TIMEOUT'],
  })
  .refine((env) => env.BACKUP_STALE_AFTER_SECONDS >= 3 * env.BACKUP_HEARTBEAT_SECONDS, {
    message: 'must be at least 3 x BACKUP_HEARTBEAT_SECONDS, or live backups would be failed',
    path: ['BACKUP_STALE_AFTER_SECONDS'],
  })
  .transform((env) => {
    const port = env.PORT;
    const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
    const consoleUrl = (env.CONSOLE_URL ?? baseUrl).replace(/\/+$/, '');
    const consoleOrigins =
      env.CONSOLE_ORIGINS === undefined
        ? env.NODE_ENV === 'production'
          ? []
          : DEV_CONSOLE_ORIGINS
        : splitList(env.CONSOLE_ORIGINS);
    return {
      ...env,
      BASE_URL: baseUrl,
      CONSOLE_URL: consoleUrl,
      CONSOLE_ORIGINS: consoleOrigins,
      API_RESOURCE: `${baseUrl}/api/`,
      // The MCP endpoint is a protected resource of its own (MCP specification, Authorization):
      // its tokens name it, not the API, so neither kind of token works on the other.
      MCP_RESOURCE: `${baseUrl}/mcp`,
    };
  });

export type AppConfig = z.infer<typeof configSchema>;

function splitList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** True when `value` is an http(s) origin written exactly as a browser serializes it. */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value && !value.includes('*');
  } catch {
    return false;
  }
}

/**
 * Parses and validates configuration from an environment map.
 * @throws Error listing every bad setting by name, so boot stops with a clear message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  return parsed.data;
}

/** The process environment with some settings decided by the caller (the demo, benchmarks). */
export function loadConfigWith(overrides: Record<string, string | undefined>): AppConfig {
  return loadConfig({ ...process.env, ...overrides });
}
