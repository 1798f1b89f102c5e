import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { FLOW_TTL_SECONDS, openFlow, sealFlow, type SignInFlow } from './oidc-flow-cookie.js';

const key = randomBytes(32);
const flow: SignInFlow = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/backups' };
const now = 1_800_000_000;

describe('the identity provider flow cookie', () => {
  it('opens to what was sealed, within its 10 minutes', () => {
    const sut = sealFlow(key, flow, now);
    expect(sut).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(openFlow(key, sut, now + FLOW_TTL_SECONDS - 1)).toEqual(flow);
  });

  it('does not open once expired', () => {
    expect(FLOW_TTL_SECONDS).toBe(600);
    expect(openFlow(key, sealFlow(key, flow, now), now + FLOW_TTL_SECONDS)).toBeNull();
  });

  it('does not open under another key, altered, or malformed', () => {
    const sealed = sealFlow(key, flow, now);
    const [payload, signature] = sealed.split('.');
    const altered = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), returnTo: '/x' }),
    ).toString('base64url');
    expect(openFlow(randomBytes(32), sealed, now)).toBeNull();
    expect(openFlow(key, `${altered}.${signature}`, now)).toBeNull();
    expect(openFlow(key, `${payload}.${signature}.x`, now)).toBeNull();
    expect(openFlow(key, payload, now)).toBeNull();
    expect(openFlow(key, undefined, now)).toBeNull();
  });
});
