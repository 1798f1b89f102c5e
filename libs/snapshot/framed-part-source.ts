import { Readable } from 'node:stream';

import { ObjectStore } from '@libs/object-store/object-store.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';

import { DigestStream } from './digest-stream.js';
import { FrameInfo } from './framed-part-sink.js';
import { SinkResult } from './encrypted-part-sink.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';

/** Where a framed object is and what the manifest says of it. */
export interface FramedObject extends SinkResult {
  /** full key in the store */
  key: string;
  frames: readonly FrameInfo[];
}

/**
 * Streams the sealed frames of a framed object in order, cut at the manifest's frame sizes. The
 * SHA-256 and size of the whole object are checked against the manifest at the end, so a caller
 * that reads to the end has checked every byte; frames are authenticated one by one on opening.
 * @throws SnapshotIntegrityError when the object is missing, shorter or longer than the manifest
 *   says, or its digest differs; the store's own errors pass through
 */
export async function* readSealedFrames(
  store: ObjectStore,
  object: FramedObject,
  label: string,
): AsyncGenerator<Buffer> {
  const digest = new DigestStream();
  const stored = await getObject(store, object.key, label);
  stored.on('error', (error) => digest.destroy(error));
  const source = stored.pipe(digest);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let frame = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (frame < object.frames.length && pendingBytes >= object.frames[frame].storedBytes) {
        const joined = Buffer.concat(pending);
        const size = object.frames[frame].storedBytes;
        yield joined.subarray(0, size);
        pending = [joined.subarray(size)];
        pendingBytes -= size;
        frame += 1;
      }
      if (frame === object.frames.length && pendingBytes > 0) {
        throw new SnapshotIntegrityError(`${label}: more bytes than the manifest's frames`);
      }
    }
  } finally {
    stored.destroy();
    source.destroy();
  }
  if (frame !== object.frames.length || pendingBytes !== 0) {
    throw new SnapshotIntegrityError(`${label}: fewer bytes than the manifest's frames`);
  }
  if (digest.bytes !== object.storedBytes || digest.sha256 !== object.sha256) {
    throw new SnapshotIntegrityError(`${label}: stored bytes do not match the manifest's size and SHA-256`);
  }
}

/**
 * Reads one sealed frame with a ranged read (the frames before it are skipped, not fetched).
 * @throws RangeError for a frame number the object does not have; SnapshotIntegrityError when the
 *   object is missing or the frame is short
 */
export async function readSealedFrame(
  store: ObjectStore,
  object: FramedObject,
  frame: number,
  label: string,
): Promise<Buffer> {
  if (!Number.isInteger(frame) || frame < 0 || frame >= object.frames.length) {
    throw new RangeError(`${label} has no frame ${frame}`);
  }
  let start = 0;
  for (let i = 0; i < frame; i += 1) start += object.frames[i].storedBytes;
  const size = object.frames[frame].storedBytes;
  let stream: Readable;
  try {
    stream = await getObject(store, object.key, label, { start, end: start + size - 1 });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new SnapshotIntegrityError(`${label}: frame ${frame} is cut short`, { cause: error });
    }
    throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const sealed = Buffer.concat(chunks);
  if (sealed.length !== size) throw new SnapshotIntegrityError(`${label}: frame ${frame} is cut short`);
  return sealed;
}

async function getObject(
  store: ObjectStore,
  key: string,
  label: string,
  range?: { start: number; end: number },
): Promise<Readable> {
  try {
    return await store.get(key, range);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) {
      throw new SnapshotIntegrityError(`${label} is missing`, { cause: error });
    }
    throw error;
  }
}
