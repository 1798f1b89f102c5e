import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Okta object id prefixes (3 characters; the id is 20 characters in all), as seen in real
 * responses: users `00u`, groups `00g`, apps `0oa`, policies `00p`, group rules `0pr`...
 */
export const ID_PREFIX = {
  user: '00u',
  group: '00g',
  groupRule: '0pr',
  app: '0oa',
  policy: '00p',
  policyRule: '0pr',
  authorizationServer: 'aus',
  scope: 'scp',
  claim: 'ocl',
  authorizationServerPolicy: '00p',
  authorizationServerPolicyRule: '0pr',
  networkZone: 'nzo',
  trustedOrigin: 'tos',
  userType: 'oty',
  errorId: 'oae',
} as const;

/** A source of uniform random numbers in [0, 1). */
export type RandomSource = () => number;

/** Default source for objects created through the API: crypto-strong, not reproducible. */
export const cryptoRandom: RandomSource = () => randomBytes(4).readUInt32BE(0) / 0x1_0000_0000;

/** An Okta-shaped id: `prefix` followed by base62 characters up to `length` (20 for objects). */
export function oktaId(prefix: string, random: RandomSource = cryptoRandom, length = 20): string {
  let id = prefix;
  while (id.length < length) id += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return id;
}

/** Okta timestamps carry milliseconds, always zero: `2025-03-13T23:38:01.000Z`. */
export function oktaTimestamp(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString();
}
