import { describe, expect, it } from '@jest/globals';
import { pointerTokens, revertFields } from './field-revert.js';

describe('revertFields', () => {
  const clean = {
    settings: { complexity: { minLength: 12, minUpper: 1 } },
    name: 'Default',
    'a/b': { '~x': 1 },
  };

  it('puts back only the named fields, leaving the others as they are now', () => {
    const now = { settings: { complexity: { minLength: 4, minUpper: 0 } }, name: 'Renamed later' };
    const reverted = revertFields(now, clean, ['/settings/complexity/minLength']);
    expect(reverted).toEqual({
      settings: { complexity: { minLength: 12, minUpper: 0 } },
      name: 'Renamed later',
    });
    expect(now.settings.complexity.minLength).toBe(4);
  });

  it('removes a field the clean record lacks, and makes the parents of one it has', () => {
    expect(
      revertFields({ name: 'x', extra: { deep: true } }, clean, [
        '/extra/deep',
        '/settings/complexity/minUpper',
      ]),
    ).toEqual({
      name: 'x',
      extra: {},
      settings: { complexity: { minUpper: 1 } },
    });
  });

  it('reads RFC 6901 escapes', () => {
    expect(pointerTokens('/a~1b/~0x')).toEqual(['a/b', '~x']);
    expect(revertFields({}, clean, ['/a~1b/~0x'])).toEqual({ 'a/b': { '~x': 1 } });
  });
});
