import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes a stream passes on between two scavenges (scavengingEvery's default). */
export const SCAVENGE_EVERY_BYTES = 4 * 1024 * 1024;

type GcFunction = (options: { type: 'minor' | 'major' }) => void;
let gc: GcFunction | undefined;

/**
 * V8's `gc` function without `--expose-gc` on the command line: the flag is set, a new context
 * (which is when V8 installs the function) hands it over, and the flag is cleared again so no
 * later context gets it. Node documents `v8.setFlagsFromString` for flags set after start-up.
 */
function exposedGc(): GcFunction {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as GcFunction;
    setFlagsFromString('--no-expose-gc');
  }
  return gc;
}

/**
 * Passes `source`'s chunks on unchanged and runs a young-generation collection (a scavenge,
 * about a millisecond) after every `everyBytes` of them.
 *
 * Why: a chunk read from a socket is a Buffer whose memory lies outside V8's heap, freed only
 * when a collection finds the Buffer unreachable. A stream that moves tens of MB while allocating
 * few JavaScript objects (PostgreSQL's COPY output sent on to an HTTP response) triggers few
 * collections of its own, so up to 50 MB of chunks already sent waited for the collector and the
 * process's RSS rose by that much (docs/account.md: an account export's RSS must rise by less than
 * 30 MB). Scavenging on a byte count keeps that garbage under `everyBytes`.
 *
 * @param source chunks of bytes, passed on as they come
 * @param everyBytes bytes between two scavenges, at least 1
 */
export async function* scavengingEvery(
  source: AsyncIterable<Buffer>,
  everyBytes = SCAVENGE_EVERY_BYTES,
): AsyncGenerator<Buffer> {
  const collect = exposedGc();
  let since = 0;
  for await (const chunk of source) {
    since += chunk.length;
    yield chunk;
    if (since >= everyBytes) {
      since = 0;
      collect({ type: 'minor' });
    }
  }
}
