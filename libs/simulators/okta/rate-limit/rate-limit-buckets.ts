/** One Okta rate-limit bucket: requests per minute for an Enterprise org. */
export interface RateLimitBucket {
  name: string;
  perMinute: number;
}

interface BucketRule {
  bucket: RateLimitBucket;
  methods?: readonly string[];
  /** Matched against the route's OpenAPI template (or the raw path when no route matched). */
  path: RegExp;
}

/**
 * Okta's per-minute limits for an Enterprise org, per endpoint bucket.
 * Source: developer.okta.com/docs/reference/rl-global-mgmt ("Management rate limits") and
 * /rl-global-enduser, as published in okta/okta-developer-docs
 * (packages/@okta/vuepress-site/docs/reference/rl-global-mgmt/index.md):
 *
 * | bucket                                                      | Enterprise |
 * |-------------------------------------------------------------|-----------:|
 * | /api/v1/apps and /api/v1/apps/{id}/* (create, list, other)  | 100        |
 * | /api/v1/apps/{id} only (get, update, delete)                | 600        |
 * | /api/v1/groups except /api/v1/groups/{id}                   | 600        |
 * | /api/v1/groups/{id} only                                    | 600        |
 * | GET or POST /api/v1/users                                   | 600        |
 * | GET /api/v1/users/{idOrLogin}                               | 1000       |
 * | POST, PUT or DELETE /api/v1/users/{id}                      | 600        |
 * | /oauth2/v1 (org authorization server, token endpoint)       | 1200       |
 * | /api/v1/logs (System Log)                                   | 50         |
 * | most other API actions: /api/v1                             | 600        |
 *
 * Okta counts a bucket per endpoint template, shared by every id (all GET /api/v1/users/{id}
 * share one bucket).
 */
const RULES: readonly BucketRule[] = [
  { bucket: { name: 'apps-by-id', perMinute: 600 }, path: /^\/api\/v1\/apps\/\{appId\}$/ },
  { bucket: { name: 'apps', perMinute: 100 }, path: /^\/api\/v1\/apps(\/|$)/ },
  { bucket: { name: 'group-by-id', perMinute: 600 }, path: /^\/api\/v1\/groups\/\{groupId\}$/ },
  { bucket: { name: 'groups', perMinute: 600 }, path: /^\/api\/v1\/groups(\/|$)/ },
  { bucket: { name: 'users', perMinute: 600 }, methods: ['GET', 'POST'], path: /^\/api\/v1\/users$/ },
  { bucket: { name: 'user-get', perMinute: 1000 }, methods: ['GET'], path: /^\/api\/v1\/users\/\{id\}$/ },
  { bucket: { name: 'user-write', perMinute: 600 }, path: /^\/api\/v1\/users\/\{id\}$/ },
  { bucket: { name: 'oauth2', perMinute: 1200 }, path: /^\/oauth2\/v1\// },
  { bucket: { name: 'logs', perMinute: 50 }, path: /^\/api\/v1\/logs$/ },
];

const OTHER: RateLimitBucket = { name: 'api-v1', perMinute: 600 };

/** The bucket a request counts against. */
export function bucketFor(method: string, template: string): RateLimitBucket {
  const rule = RULES.find((r) => r.path.test(template) && (!r.methods || r.methods.includes(method)));
  return rule?.bucket ?? OTHER;
}
