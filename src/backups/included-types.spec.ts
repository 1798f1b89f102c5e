import { describe, expect, it } from '@jest/globals';
import { OKTA_RESOURCE_TYPES } from '@libs/providers/resource-types.js';
import { ValidationError } from '../common/errors.js';
import { OKTA_CATEGORIES, resolveIncludedTypes } from './included-types.js';

describe('resolveIncludedTypes', () => {
  it('expands categories and keeps the provider order, without duplicates', () => {
    const sut = resolveIncludedTypes('okta', ['network', 'groups', 'group', 'user']);
    expect(sut).toEqual([
      'user',
      'group',
      'group_membership',
      'group_rule',
      'network_zone',
      'trusted_origin',
    ]);
  });

  it('accepts single types', () => {
    expect(resolveIncludedTypes('okta', ['policy_rule'])).toEqual(['policy_rule']);
  });

  it('has categories that cover every Okta type exactly once', () => {
    const covered = Object.values(OKTA_CATEGORIES).flat();
    expect([...covered].sort()).toEqual([...OKTA_RESOURCE_TYPES].sort());
  });

  it('refuses unknown entries, listing the valid categories and types', () => {
    expect(() => resolveIncludedTypes('okta', ['users', 'unicorn'])).toThrow(ValidationError);
    expect(() => resolveIncludedTypes('okta', ['unicorn'])).toThrow(
      /unicorn; valid values: users, groups, .*user, group,/,
    );
  });

  it('refuses an empty list', () => {
    expect(() => resolveIncludedTypes('okta', [])).toThrow(/\(empty list\)/);
  });
});
