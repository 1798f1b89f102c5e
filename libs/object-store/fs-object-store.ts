import { randomUUID } from 'node:crypto';
import { FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';

import { assertRange } from './byte-range.js';
import { assertObjectKey, assertObjectPrefix, isObjectKey } from './object-key.js';
import { ByteRange, ObjectEntry, ObjectStore } from './object-store.js';
import { ObjectNotFoundError, ObjectStoreUnavailableError } from './object-store-errors.js';

/** Staging directory for writes in flight, inside the root so that rename stays on one filesystem. */
const STAGING_DIR = '.staging';
/** Missing file, or a path component that is a file: either way there is no object. */
const ABSENT_CODES = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Objects as plain files under `rootDir` (`<rootDir>/<key>`), for single-host installs and tests.
 *
 * `put` writes to `<rootDir>/.staging/<uuid>`, fsyncs, then renames onto the key: rename(2) is
 * atomic on POSIX filesystems, so readers see the old object or the new one, and a crash leaves at
 * most an orphan in `.staging` (safe to delete when no write is running), never a partial object.
 * Directories are created on demand and removed by `deletePrefix` once empty. Unlike S3, a key
 * cannot also be a directory (`a` and `a/b` cannot both exist); such a put fails with the
 * filesystem's error (ENOTDIR, EISDIR).
 */
export class FsObjectStore implements ObjectStore {
  readonly #root: string;

  /** @param rootDir created on first write; relative paths resolve against the working directory */
  constructor(rootDir: string) {
    this.#root = resolve(rootDir);
  }

  async put(key: string, body: Readable | Buffer): Promise<{ size: number }> {
    const target = this.#pathOf(key);
    const staging = join(this.#root, STAGING_DIR);
    await mkdir(staging, { recursive: true });
    const temp = join(staging, randomUUID());
    try {
      const size = await writeDurably(temp, body);
      await this.#renameInto(temp, target);
      return { size };
    } catch (error) {
      await rm(temp, { force: true });
      throw unavailable(error, key);
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    let handle: FileHandle;
    try {
      handle = await open(this.#pathOf(key), 'r');
    } catch (error) {
      throw isAbsent(error) ? new ObjectNotFoundError(key) : error;
    }
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      throw new ObjectNotFoundError(key);
    }
    if (range === undefined) return handle.createReadStream();
    try {
      assertRange(range, stats.size);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return handle.createReadStream({ start: range.start, end: range.end });
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await stat(this.#pathOf(key));
      return stats.isFile() ? { size: stats.size } : null;
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectEntry> {
    assertObjectPrefix(prefix);
    // Walk only the deepest directory the prefix names; its partial last segment filters names.
    const slash = prefix.lastIndexOf('/');
    const dirKey = prefix.slice(0, slash + 1);
    yield* this.#walk(dirKey, prefix.slice(slash + 1));
  }

  async deletePrefix(prefix: string): Promise<number> {
    const emptied = new Set<string>();
    let deleted = 0;
    for await (const { key } of this.list(prefix)) {
      const path = this.#pathOf(key);
      try {
        await rm(path);
        deleted += 1;
        emptied.add(dirname(path));
      } catch (error) {
        if (!isAbsent(error)) throw error;
      }
    }
    // Deepest first, so that a parent is tried after its children are gone.
    for (const dir of [...emptied].sort((a, b) => b.length - a.length)) {
      await this.#removeEmptyDirs(dir);
    }
    return deleted;
  }

  /** Keys under `dirKey` (ending in `/` or empty) whose first segment below it starts with `partial`. */
  async *#walk(dirKey: string, partial = ''): AsyncGenerator<ObjectEntry> {
    let entries;
    try {
      entries = await readdir(join(this.#root, dirKey), { withFileTypes: true });
    } catch (error) {
      if (isAbsent(error)) return;
      throw error;
    }
    const children = entries.filter((entry) => !entry.name.startsWith('.') && entry.name.startsWith(partial));
    for (const entry of children) {
      const key = dirKey + entry.name;
      if (entry.isDirectory()) {
        yield* this.#walk(`${key}/`);
      } else if (isObjectKey(key)) {
        // Files put there by other means may have names no key can have; they are not objects.
        const size = await this.head(key);
        if (size !== null) yield { key, size: size.size };
      }
    }
  }

  /** A concurrent deletePrefix may remove the target's empty directory between mkdir and rename. */
  async #renameInto(temp: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      await mkdir(dirname(target), { recursive: true });
      try {
        await rename(temp, target);
        return;
      } catch (error) {
        if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
  }

  async #removeEmptyDirs(from: string): Promise<void> {
    for (let dir = from; dir !== this.#root && dir.startsWith(this.#root); dir = dirname(dir)) {
      try {
        await rmdir(dir);
      } catch {
        return; // not empty (or already gone): its parents are not empty either
      }
    }
  }

  #pathOf(key: string): string {
    assertObjectKey(key);
    return join(this.#root, ...key.split('/'));
  }
}

/** Writes `body` to a new file and flushes it to disk. @returns bytes written */
async function writeDurably(path: string, body: Readable | Buffer): Promise<number> {
  const handle = await open(path, 'wx');
  try {
    let size = 0;
    // One awaited write at a time gives backpressure; a WriteStream would close the handle before
    // it could be synced. writeFile on a handle writes at the current position, retrying short writes.
    for await (const chunk of Buffer.isBuffer(body) ? [body] : body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array | string);
      await handle.writeFile(bytes);
      size += bytes.length;
    }
    await handle.sync();
    return size;
  } finally {
    await handle.close();
  }
}

function isAbsent(error: unknown): boolean {
  return ABSENT_CODES.has((error as NodeJS.ErrnoException).code ?? '');
}

/** Filesystem errors an operator must fix (errno names, POSIX), as they read in a failed run. */
const UNAVAILABLE: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EROFS: 'the filesystem is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'an I/O error',
};

/** `error` as an ObjectStoreUnavailableError when it is one of those, else unchanged. */
function unavailable(error: unknown, key: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (!code || !(code in UNAVAILABLE)) return error;
  return new ObjectStoreUnavailableError(
    `The filesystem object store failed writing "${key}": ${UNAVAILABLE[code]} (${code})`,
    {
      cause: error,
    },
  );
}
