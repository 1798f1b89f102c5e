/** Every limit counts requests in fixed windows of this length (spec "Limits": "The window resets every 60 seconds"). */
export const RATE_LIMIT_WINDOW_MS = 60_000;

/** One row of the spec's Limits table: a request budget per client IP and window, and the routes it covers. */
export interface RateLimitRule {
  /** Names the counter (and the storage key); stable across releases and replicas. */
  name: string;
  /** Requests per window per client IP. */
  limit: number;
  /**
   * @param method upper-case HTTP method.
   * @param routePath the matched route's pattern as declared (e.g. `/api/connections/:id`),
   *   so case, trailing slashes and encodings of the request path cannot dodge a rule.
   */
  appliesTo(method: string, routePath: string): boolean;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SIGN_IN_CODE_ROUTES = new Set([
  '/api/auth/send-code',
  '/api/auth/verify-code',
  '/interaction/:uid/send-code',
  '/interaction/:uid/verify-code',
]);

/**
 * The spec's Limits table. Each rule is one budget per client IP shared by all the routes it
 * covers; a request spends from every rule that covers it, so a backup run also counts toward
 * the 120 of the default rule. The restore rule is keyed by path, not by a decorator, so the
 * restore routes are limited the moment they exist.
 */
export const RATE_LIMIT_RULES: readonly RateLimitRule[] = [
  {
    // "Backup and restore mutations: 10 requests per minute: /api/backup/run and mutations under /api/restore/*."
    // A restore drill (POST /api/backup/:id/verify, beyond the spec) reads a whole snapshot, as
    // heavy as a backup, so it spends from the same budget.
    name: 'backup-restore-mutations',
    limit: 10,
    appliesTo: (method, path) =>
      (method === 'POST' && (path === '/api/backup/run' || path === '/api/backup/:id/verify')) ||
      (UNSAFE_METHODS.has(method) && (path === '/api/restore' || path.startsWith('/api/restore/'))) ||
      // Approving a held restore starts it (docs/approvals.md): the same budget.
      (method === 'POST' && path === '/api/approvals/:id/approve'),
  },
  {
    // "Sign-in codes: 20 requests per minute: /api/auth/send-code and /api/auth/verify-code."
    // The authorization server's sign-in page posts the same two operations (docs/auth.md).
    name: 'sign-in-codes',
    limit: 20,
    appliesTo: (_method, path) => SIGN_IN_CODE_ROUTES.has(path),
  },
  {
    // docs/security.md: the public newsletter's subscribe, a per-IP budget beside each address's own
    // (NewsletterService), so nobody can mail-bomb addresses through it.
    name: 'newsletter-subscribe',
    limit: 10,
    appliesTo: (method, path) => method === 'POST' && path === '/api/newsletter/subscribe',
  },
  {
    // The readiness probe outside /api (docs/operations.md) is public and touches the database
    // and the object store: one a second per IP is well above an orchestrator's probing (every
    // 10 s by default in Kubernetes) and bounds what an anonymous caller makes it do.
    name: 'probes',
    limit: 60,
    appliesTo: (method, path) => method === 'GET' && path === '/readyz',
  },
  {
    // docs/mcp.md: the MCP endpoint is the API for agents, so it gets the API's default budget,
    // in a counter of its own (an agent's tool calls do not starve the console, and the other
    // way round). Each tool call is one request.
    name: 'mcp',
    limit: 120,
    appliesTo: (_method, path) => path === '/mcp',
  },
  {
    // "Default rate: 120 requests per minute: all /api/* endpoints."
    name: 'api',
    limit: 120,
    appliesTo: (_method, path) => path.startsWith('/api/'),
  },
];
