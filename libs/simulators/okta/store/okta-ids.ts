import { randomBytes } from 'node:crypto';

// Bound once for hot loops (see seed/prng.ts).
const { floor } = Math;

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
  userSchema: 'osc',
  authenticator: 'aut',
  behavior: 'bhv',
  identityProvider: '0oa',
  eventHook: 'who',
  inlineHook: 'cal',
  profileMapping: 'prm',
  brand: 'bnd',
  theme: 'the',
  emailCustomization: 'oel',
  customDomain: 'OcD',
  customRole: 'cr0',
  resourceSet: 'iam',
  resourceSetResource: 'ire',
  bindingMember: 'irb',
  roleAssignment: 'ra1',
  clientSecret: 'ocs',
  errorId: 'oae',
} as const;

/** A source of uniform random numbers in [0, 1). */
export type RandomSource = () => number;

/** Bytes of crypto-strong randomness drawn at a time by cryptoRandom: 1,024 draws. */
const RANDOM_POOL_BYTES = 4096;
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/**
 * Default source for objects created through the API: crypto-strong, not reproducible. Each draw
 * is 32 bits of a pool filled by one `randomBytes` call per 1,024 draws: one call per draw cost a
 * native call and a Buffer each, 22 of them per error id, and the simulator answers an error id
 * with every 4xx (a recorded org's backup meets hundreds).
 */
export const cryptoRandom: RandomSource = () => {
  if (randomAt >= randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomAt = 0;
  }
  const value = randomPool.readUInt32BE(randomAt);
  randomAt += 4;
  return value / 0x1_0000_0000;
};

/**
 * An Okta-shaped id: `prefix` followed by base62 characters up to `length` (20 for objects).
 * Built with `join`, which yields a flat string: character-by-character `+=` would leave a
 * chain of ~17 cons cells per id, several hundred bytes each across 100,000s of objects.
 */
export function oktaId(prefix: string, random: RandomSource = cryptoRandom, length = 20): string {
  const chars: string[] = [prefix];
  for (let i = prefix.length; i < length; i++) chars.push(ALPHABET[floor(random() * ALPHABET.length)]);
  return chars.join('');
}

const DAY_SECONDS = 86_400;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** `YYYY-MM-DDT` per day number: generators format millions of timestamps. */
const dayPrefixes = new Map<number, string>();

/** Okta timestamps carry milliseconds, always zero: `2025-03-13T23:38:01.000Z`. */
export function oktaTimestamp(epochMs: number): string {
  const seconds = floor(epochMs / 1000);
  const day = floor(seconds / DAY_SECONDS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const time = seconds - day * DAY_SECONDS;
  // join, not a template literal: it yields a flat string (see oktaId).
  return [
    prefix,
    TWO_DIGITS[floor(time / 3600)],
    ':',
    TWO_DIGITS[floor(time / 60) % 60],
    ':',
    TWO_DIGITS[time % 60],
    '.000Z',
  ].join('');
}
