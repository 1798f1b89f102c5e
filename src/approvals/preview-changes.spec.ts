import { describe, expect, it } from '@jest/globals';
import { previewChanges } from './preview-changes.js';

const row = (resourceType: string, create: number, update = 0) => ({
  resourceType,
  create,
  update,
  skip: 0,
  pruneCandidates: 0,
  restoreFromDeleted: 0,
  notes: [`read at ${Math.random()}`],
});

describe('previewChanges', () => {
  it('is empty when the live org would be restored the same way, whenever it was read', () => {
    const sut = previewChanges(
      { preview: [row('group', 1)], prune: [] },
      { preview: [row('group', 1)], prune: [] },
    );
    expect(sut).toEqual([]);
  });

  it('names the count that moved with its earlier value, and a prune candidate that appeared', () => {
    const sut = previewChanges(
      { preview: [row('group', 1), row('user', 0, 2)], prune: [] },
      {
        preview: [row('group', 2), row('user', 0, 2)],
        prune: [{ resourceType: 'app', id: 'a1', ...{ name: 'Evil', severity: 'high' } }],
      },
    );
    expect(sut).toEqual(
      expect.arrayContaining([
        { op: 'test', path: '/rows/group/create', value: 1 },
        { op: 'replace', path: '/rows/group/create', value: 2 },
        { op: 'add', path: '/prune/app:a1', value: { name: 'Evil', severity: 'high' } },
      ]),
    );
    expect(sut.filter((op) => op.path.startsWith('/rows/user'))).toEqual([]);
  });

  it('into another org, names an object whose action in the target changed, by its source id', () => {
    const objects = (action: string) => ({
      objects: [
        { resourceType: 'group', sourceId: '00g1', targetId: null, name: 'Sales', action },
        { resourceType: 'group', sourceId: null, targetId: '00g9', name: 'Own', action: 'target_only' },
      ],
      cannotMove: [],
    });
    const sut = previewChanges(
      { preview: [row('group', 1)], crossOrg: objects('create') },
      { preview: [row('group', 1)], crossOrg: objects('same') },
    );
    expect(sut).toEqual([
      { op: 'test', path: '/crossOrg/group:00g1/action', value: 'create' },
      { op: 'replace', path: '/crossOrg/group:00g1/action', value: 'same' },
    ]);
  });
});
