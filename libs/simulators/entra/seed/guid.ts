import type { Prng } from '@libs/simulators/kit/seed/prng.js';

/** A deterministic GUID from the PRNG (Graph object ids are GUIDs). */
export function guid(prng: Prng): string {
  const hex = Array.from({ length: 32 }, () => prng.int(0, 15).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}
