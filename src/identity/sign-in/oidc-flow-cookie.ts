import { createHmac, timingSafeEqual } from 'node:crypto';

/** Name of the cookie that carries an identity provider sign-in in progress. */
export const FLOW_COOKIE = '__Host-sign-in-flow';

/** Its lifetime, seconds: spec "Authentication" item 6 caps cookies of OAuth flows at 10 minutes. */
export const FLOW_TTL_SECONDS = 600;

/** What the callback must check against the identity provider's answer (OpenID Connect Core §3.1.2.1, RFC 7636). */
export interface SignInFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Local path to go back to once signed in. */
  returnTo: string;
}

/**
 * The cookie value: `base64url(JSON of the flow and its expiry).base64url(HMAC-SHA256)`. Signed,
 * not encrypted: it only ever travels between this service and the browser it was set in, over
 * TLS, HttpOnly, and it is useless after one callback or 10 minutes.
 * @param now epoch seconds.
 */
export function sealFlow(key: Buffer, flow: SignInFlow, now: number): string {
  const payload = Buffer.from(JSON.stringify({ ...flow, exp: now + FLOW_TTL_SECONDS }), 'utf8').toString(
    'base64url',
  );
  return `${payload}.${mac(key, payload)}`;
}

/**
 * The flow the cookie carries, or null when it is absent, altered, malformed or expired.
 * @param now epoch seconds.
 */
export function openFlow(key: Buffer, value: string | undefined, now: number): SignInFlow | null {
  const [payload, signature, extra] = (value ?? '').split('.');
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(key, payload), 'base64url');
  const actual = Buffer.from(signature, 'base64url');
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const { state, nonce, codeVerifier, returnTo, exp } = (parsed ?? {}) as Record<string, unknown>;
  const strings = [state, nonce, codeVerifier, returnTo].every((item) => typeof item === 'string');
  if (!strings || typeof exp !== 'number' || exp <= now) return null;
  return { state, nonce, codeVerifier, returnTo } as SignInFlow;
}

function mac(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload, 'utf8').digest('base64url');
}
