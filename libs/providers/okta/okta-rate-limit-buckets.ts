/**
 * Okta's management rate-limit buckets that several endpoints share, by path template (Okta
 * "Rate limits", developer.okta.com/docs/reference/rl-global-mgmt, "Management rate limits"):
 * `/api/v1/apps` and `/api/v1/apps/{id}/*` (list, create and everything under one app) share the
 * apps bucket, and `/api/v1/groups` and `/api/v1/groups/{id}/*` the groups bucket, while
 * `/api/v1/apps/{id}` and `/api/v1/groups/{id}` alone have buckets of their own.
 */
const SHARED_BUCKETS: ReadonlyArray<{ name: string; path: RegExp; except: RegExp }> = [
  { name: 'apps', path: /^\/api\/v1\/apps(\/|$)/, except: /^\/api\/v1\/apps\/\{[^}/]+\}$/ },
  { name: 'groups', path: /^\/api\/v1\/groups(\/|$)/, except: /^\/api\/v1\/groups\/\{[^}/]+\}$/ },
];

/**
 * The bucket a request key (`METHOD /path/template`) counts against, for the governor's
 * `bucketOf`: one name for the endpoints of a shared bucket above, the key itself for the rest
 * (counting those apart can only make the governor keep more free, never less).
 */
export function oktaRateLimitBucket(key: string): string {
  const template = key.slice(key.indexOf(' ') + 1);
  return (
    SHARED_BUCKETS.find((bucket) => bucket.path.test(template) && !bucket.except.test(template))?.name ?? key
  );
}
