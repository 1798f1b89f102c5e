import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { describe, expect, it } from '@jest/globals';

import { CHUNK_PLAINTEXT_BYTES, createDecryptStream, createEncryptStream } from './chunked-gcm-stream.js';
import { DecryptionError } from './crypto-errors.js';

const HEADER = 9;
const TAG = 16;
const CHUNK = CHUNK_PLAINTEXT_BYTES + TAG;
const key = randomBytes(32);
const aad = 'snapshot-1/part/user';

async function collectOutput(transform: Transform, pieces: Buffer[]): Promise<Buffer> {
  const output: Buffer[] = [];
  await pipeline(Readable.from(pieces), transform, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) output.push(chunk);
  });
  return Buffer.concat(output);
}

/** Feeds `input` in uneven pieces so that chunk boundaries never line up with writes. */
async function run(transform: Transform, input: Buffer): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let offset = 0, size = 1; offset < input.length; offset += size, size = (size * 7 + 3) % 50_000) {
    pieces.push(input.subarray(offset, offset + size));
  }
  return collectOutput(transform, pieces);
}

const encrypt = (plaintext: Buffer, streamAad = aad) => run(createEncryptStream(key, streamAad), plaintext);
const decrypt = (ciphertext: Buffer, streamAad = aad, streamKey = key) =>
  run(createDecryptStream(streamKey, streamAad), ciphertext);

describe('chunked AES-256-GCM stream', () => {
  it.each([
    ['empty input', 0, 1],
    ['1 byte', 1, 1],
    ['exactly one chunk', CHUNK_PLAINTEXT_BYTES, 1],
    ['one chunk and a byte', CHUNK_PLAINTEXT_BYTES + 1, 2],
    ['many chunks', 5 * CHUNK_PLAINTEXT_BYTES + 123, 6],
    ['an exact multiple of the chunk size', 4 * CHUNK_PLAINTEXT_BYTES, 4],
  ])('round-trips %s', async (_name, size, chunks) => {
    const plaintext = randomBytes(size);

    const ciphertext = await encrypt(plaintext);

    expect(ciphertext).toHaveLength(HEADER + size + chunks * TAG);
    // Buffer.equals: Jest's toEqual walks large buffers byte by byte and takes seconds.
    expect((await decrypt(ciphertext)).equals(plaintext)).toBe(true);
  });

  // Linear work takes about a second here; re-copying the input per chunk would take minutes and
  // hit the test's timeout. Not a wall-clock assertion: the machine's load must not fail it.
  it('round-trips 64 MiB written as one buffer', async () => {
    const plaintext = randomBytes(64 * 1024 * 1024);

    const ciphertext = await collectOutput(createEncryptStream(key, aad), [plaintext]);
    const decrypted = await collectOutput(createDecryptStream(key, aad), [ciphertext]);

    expect(ciphertext).toHaveLength(
      HEADER + plaintext.length + Math.ceil(plaintext.length / CHUNK_PLAINTEXT_BYTES) * TAG,
    );
    expect(decrypted.equals(plaintext)).toBe(true);
  }, 60_000);

  it('does not contain the plaintext', async () => {
    const plaintext = Buffer.from('alice.tamper-check@example.com '.repeat(5000));

    const ciphertext = await encrypt(plaintext);

    expect(ciphertext.includes('alice.tamper-check')).toBe(false);
  });

  it('emits ciphertext before its input ends (streams, does not buffer the whole input)', async () => {
    const sut = createEncryptStream(key, aad);
    const received: Buffer[] = [];
    sut.on('data', (chunk: Buffer) => received.push(chunk));

    sut.write(randomBytes(3 * CHUNK_PLAINTEXT_BYTES));
    await new Promise((resolve) => setImmediate(resolve));

    expect(Buffer.concat(received)).toHaveLength(HEADER + 2 * CHUNK);
    sut.end();
  });

  describe('detects tampering', () => {
    const plaintext = randomBytes(3 * CHUNK_PLAINTEXT_BYTES + 100);
    const encrypted = encrypt(plaintext);

    const expectRejected = async (ciphertext: Buffer, streamAad = aad, streamKey = key) => {
      await expect(decrypt(ciphertext, streamAad, streamKey)).rejects.toThrow(DecryptionError);
    };
    const flip = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] ^= 0x80;
      return copy;
    };

    it('a flipped byte in the header (version, nonce prefix)', async () => {
      const ciphertext = await encrypted;
      await expect(decrypt(flip(ciphertext, 0))).rejects.toThrow(/unknown format version/);
      await expectRejected(flip(ciphertext, 4));
    });

    it('a flipped byte in a chunk body or tag, first, middle or last chunk', async () => {
      const ciphertext = await encrypted;
      for (const at of [HEADER, HEADER + CHUNK - 1, HEADER + CHUNK + 500, ciphertext.length - TAG - 1]) {
        await expectRejected(flip(ciphertext, at));
      }
      await expectRejected(flip(ciphertext, ciphertext.length - 1));
    });

    it('a truncated chunk, a dropped last chunk, a lone header, nothing at all', async () => {
      const ciphertext = await encrypted;
      await expectRejected(ciphertext.subarray(0, ciphertext.length - 1));
      await expectRejected(ciphertext.subarray(0, HEADER + 3 * CHUNK));
      await expectRejected(ciphertext.subarray(0, HEADER + CHUNK + 10));
      await expectRejected(ciphertext.subarray(0, HEADER));
      await expect(decrypt(Buffer.alloc(0))).rejects.toThrow(/truncated/);
    });

    it('swapped or duplicated chunks and extra bytes', async () => {
      const ciphertext = await encrypted;
      const header = ciphertext.subarray(0, HEADER);
      const chunk = (i: number) => ciphertext.subarray(HEADER + i * CHUNK, HEADER + (i + 1) * CHUNK);
      const tail = ciphertext.subarray(HEADER + 3 * CHUNK);
      await expectRejected(Buffer.concat([header, chunk(1), chunk(0), chunk(2), tail]));
      await expectRejected(Buffer.concat([header, chunk(0), chunk(0), chunk(1), chunk(2), tail]));
      await expectRejected(Buffer.concat([ciphertext, Buffer.of(0)]));
    });

    it('a chunk spliced in from another stream under the same key', async () => {
      const ciphertext = await encrypted;
      const other = await encrypt(randomBytes(plaintext.length));
      const spliced = Buffer.concat([ciphertext.subarray(0, HEADER + CHUNK), other.subarray(HEADER + CHUNK)]);
      await expectRejected(spliced);
    });

    it('a wrong aad or a wrong key', async () => {
      const ciphertext = await encrypted;
      await expectRejected(ciphertext, 'snapshot-1/part/group');
      await expectRejected(ciphertext, aad, randomBytes(32));
    });

    it('releases no plaintext of a chunk whose tag fails', async () => {
      const ciphertext = flip(await encrypted, HEADER + 5);
      const received: Buffer[] = [];
      const sut = createDecryptStream(key, aad);
      sut.on('data', (chunk: Buffer) => received.push(chunk));

      await expect(pipeline(Readable.from([ciphertext]), sut)).rejects.toThrow(
        /chunk 0 failed authentication/,
      );
      expect(received).toHaveLength(0);
    });
  });

  it('rejects a data key that is not 32 bytes', () => {
    expect(() => createEncryptStream(randomBytes(16), aad)).toThrow(RangeError);
    expect(() => createDecryptStream(randomBytes(16), aad)).toThrow(RangeError);
  });
});
