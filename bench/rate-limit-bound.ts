import { bucketFor } from '@libs/simulators/okta/rate-limit/rate-limit-buckets.js';

/**
 * The least wall time Okta's rate limits allow for these requests: per bucket, its requests
 * divided by its allowed rate (the per-minute limit less the headroom kept free), and the
 * slowest bucket decides, since buckets are consumed in parallel. Seconds. Steady state: a run
 * that fits in a bucket's first window spends that window's budget at once and can beat it, so
 * the ratio to it means something only for runs of several windows (large orgs).
 * @param byEndpoint requests keyed `METHOD /path/template`, as the simulator logs them
 */
export function rateLimitLowerBound(byEndpoint: Record<string, number>, headroom: number): number {
  const perBucket = new Map<string, { requests: number; perMinute: number }>();
  for (const [endpoint, requests] of Object.entries(byEndpoint)) {
    const [method, template] = endpoint.split(' ');
    const bucket = bucketFor(method, template);
    const entry = perBucket.get(bucket.name) ?? { requests: 0, perMinute: bucket.perMinute };
    entry.requests += requests;
    perBucket.set(bucket.name, entry);
  }
  let seconds = 0;
  for (const { requests, perMinute } of perBucket.values()) {
    seconds = Math.max(seconds, (requests / (perMinute * (1 - headroom))) * 60);
  }
  return seconds;
}
