import { describe, expect, it } from '@jest/globals';
import { absentNamed } from './absent-references.js';

const rule = { type: 'policy_rule', id: 'rst1:rul1', name: 'Rule', data: {} };

describe('absentNamed', () => {
  const absent = new Map([['rst1', 'policy']]);

  it("names the source's own object a record names in its id, which the target lacks", () => {
    expect(absentNamed(rule, [], absent)).toMatch(
      /^Left alone: it names policy rst1, the provider's own object in the backed-up org/,
    );
  });

  it('names one the record names in its data', () => {
    const assignment = { type: 'app_sign_on_policy', id: '0oa1', name: null, data: {} };
    expect(absentNamed(assignment, ['rst1'], absent)).toContain('policy rst1');
  });

  it('is null when the record names nothing the target lacks (or the mapping paired it)', () => {
    expect(absentNamed({ ...rule, id: 'rst2:rul1' }, ['00g1'], absent)).toBeNull();
    expect(absentNamed(rule, [], new Map())).toBeNull();
  });
});
