import type {
  BucketSpacing,
  RateLimitSignal,
  RequestQuota,
} from '@libs/providers/kit/rate-limit-governor.js';
import { numberHeader } from '@libs/providers/kit/response-headers.js';

/**
 * Graph's identity and access limits as a connector paces itself by them ("Microsoft Graph
 * service-specific throttling limits", `concepts/throttling-limits.md`).
 */

/** The resource units (RU) a request cost, from its answer's `x-ms-resource-unit` ("Regular responses"). */
export const graphResourceUnitSignal: RateLimitSignal = {
  cost: (headers) => numberHeader(headers['x-ms-resource-unit']),
};

/** The window of the application+tenant RU budget. */
export const GRAPH_RU_WINDOW_MS = 10_000;

/**
 * RU per 10 s of an application+tenant pair by tenant size: S (under 50 users) 3,500, M (50 to
 * 500) 5,000, L (over 500) 8,000.
 */
export function graphResourceUnitsPer10s(users: number): number {
  if (users < 50) return 3_500;
  return users <= 500 ? 5_000 : 8_000;
}

/**
 * "Identity protection and conditional access service limits": 1 request per second per tenant
 * on conditional access policies and named locations, whose 429s carry no `Retry-After`; the
 * connector keeps to it rather than learn it from 429s (a second after the previous request's
 * answer too, so that a request delayed on its way cannot arrive within a second of the next).
 */
export const GRAPH_CONDITIONAL_ACCESS_SPACING: BucketSpacing = {
  buckets: /^\w+ \/v1\.0\/identity\/conditionalAccess\//,
  minIntervalMs: 1_000,
};

/**
 * "Identity and access service limits", writes: 3,000 requests per 2 min 30 s per
 * application+tenant (and 18,000 per 5 min per tenant, across applications: the looser one for
 * one app). Graph's answers do not count them down, so the connector counts its own writes; a
 * JSON batch is a read here (a restore sends its writes on their own).
 */
export const GRAPH_WRITE_QUOTA: RequestQuota = {
  buckets: /^(POST|PATCH|PUT|DELETE) \/v1\.0\/(?!\$batch$)/,
  requests: 3_000,
  windowMs: 150_000,
};
