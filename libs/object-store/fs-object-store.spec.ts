import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

import { FsObjectStore } from './fs-object-store.js';
import { InvalidObjectKeyError, ObjectNotFoundError } from './object-store-errors.js';

/** Paths of every file and directory under `dir`, relative to it, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .map(
      (entry) => join(entry.parentPath, entry.name).slice(dir.length + 1) + (entry.isDirectory() ? '/' : ''),
    )
    .sort();
}

describe('FsObjectStore', () => {
  let parent: string;
  let root: string;
  let sut: FsObjectStore;

  beforeEach(async () => {
    parent = await mkdtemp(join(tmpdir(), 'fs-object-store-'));
    root = join(parent, 'objects');
    sut = new FsObjectStore(root);
  });

  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('keeps each object as a plain file at <root>/<key>', async () => {
    await sut.put('teams/t1/backups/b1/manifest.json', Buffer.from('{}'));

    expect(await readFile(join(root, 'teams/t1/backups/b1/manifest.json'), 'utf8')).toBe('{}');
    expect(await tree(root)).toEqual([
      '.staging/',
      'teams/',
      'teams/t1/',
      'teams/t1/backups/',
      'teams/t1/backups/b1/',
      'teams/t1/backups/b1/manifest.json',
    ]);
  });

  it('leaves neither the object nor a staging file behind when a write fails', async () => {
    async function* failing() {
      yield Buffer.alloc(70_000);
      throw new Error('collector crashed');
    }

    await expect(sut.put('teams/t1/part', Readable.from(failing()))).rejects.toThrow('collector crashed');

    expect(await tree(root)).toEqual(['.staging/']);
  });

  it('writes nothing outside its root for a traversal attempt', async () => {
    await expect(sut.put('../escaped', Buffer.from('x'))).rejects.toThrow(/path traversal/);
    await expect(sut.put('a/../../escaped', Buffer.from('x'))).rejects.toThrow(InvalidObjectKeyError);

    expect(await readdir(parent)).toEqual([]);
  });

  it('removes directories that deletePrefix empties, keeping the root and non-empty ones', async () => {
    for (const key of [
      'teams/t1/backups/b1/parts/user',
      'teams/t1/backups/b1/manifest.json',
      'teams/t2/keep',
    ]) {
      await sut.put(key, Buffer.from('x'));
    }

    expect(await sut.deletePrefix('teams/t1/')).toBe(2);

    expect(await tree(root)).toEqual(['.staging/', 'teams/', 'teams/t2/', 'teams/t2/keep']);
    expect(await sut.deletePrefix('teams/')).toBe(1);
    expect(await tree(root)).toEqual(['.staging/']);
  });

  it('lists only objects: not staging files, directories, or files no key can name', async () => {
    await sut.put('a/real', Buffer.from('x'));
    await writeFile(join(root, '.staging', 'orphan'), 'half a write');
    await writeFile(join(root, 'a', 'back\\slash'), 'stray');
    await mkdir(join(root, 'a', 'empty-dir'));

    const keys: string[] = [];
    for await (const { key } of sut.list('')) keys.push(key);

    expect(keys).toEqual(['a/real']);
    await expect(sut.get('a/empty-dir')).rejects.toThrow(ObjectNotFoundError);
    expect(await sut.head('a/empty-dir')).toBeNull();
  });
});
