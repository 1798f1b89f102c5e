import { describe, expect, it } from '@jest/globals';
import { oktaRateLimitBucket } from './okta-rate-limit-buckets.js';

describe('oktaRateLimitBucket', () => {
  it.each([
    ['GET /api/v1/apps', 'apps'],
    ['GET /api/v1/apps/{appId}/users', 'apps'],
    ['GET /api/v1/apps/{appId}/credentials/keys', 'apps'],
    ['GET /api/v1/groups', 'groups'],
    ['GET /api/v1/groups/rules', 'groups'],
    ['GET /api/v1/groups/{groupId}/users', 'groups'],
  ])('%s counts against the shared %s bucket', (key, bucket) => {
    expect(oktaRateLimitBucket(key)).toBe(bucket);
  });

  it.each([
    'GET /api/v1/apps/{appId}',
    'GET /api/v1/groups/{groupId}',
    'GET /api/v1/users',
    'GET /api/v1/zones',
  ])('%s is a bucket of its own', (key) => {
    expect(oktaRateLimitBucket(key)).toBe(key);
  });
});
