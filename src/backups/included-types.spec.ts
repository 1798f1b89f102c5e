import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '@app/common/errors.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { resolveIncludedTypes } from './included-types.js';

const OKTA = providerDescriptor('okta')!;

describe('resolveIncludedTypes', () => {
  it('expands categories and keeps the provider order, without duplicates', () => {
    const sut = resolveIncludedTypes('okta', ['network', 'groups', 'group', 'user']);
    expect(sut).toEqual([
      'network_zone',
      'group',
      'user',
      'group_membership',
      'group_owner',
      'group_rule',
      'trusted_origin',
    ]);
  });

  it('accepts single types', () => {
    expect(resolveIncludedTypes('okta', ['policy_rule'])).toEqual(['policy_rule']);
  });

  it('resolves the categories of the settings around the directory', () => {
    expect(resolveIncludedTypes('okta', ['admin_roles', 'branding', 'hooks', 'security'])).toEqual([
      'authenticator',
      'behavior',
      'event_hook',
      'inline_hook',
      'brand',
      'brand_theme',
      'email_template',
      'email_customization',
      'brand_page',
      'custom_domain',
      'custom_admin_role',
      'custom_admin_role_permission',
      'resource_set',
      'resource_set_resource',
      'resource_set_binding',
      'resource_set_binding_member',
      'admin_role_assignment',
      'admin_role_target',
    ]);
  });

  it('has categories that cover every Okta type exactly once', () => {
    const covered = Object.values(OKTA.categories).flat();
    expect([...covered].sort()).toEqual([...OKTA.resourceTypes].sort());
  });

  it('refuses unknown entries, listing the valid categories and types', () => {
    expect(() => resolveIncludedTypes('okta', ['users', 'unicorn'])).toThrow(ValidationError);
    expect(() => resolveIncludedTypes('okta', ['unicorn'])).toThrow(
      /unicorn; valid values: users, groups, schemas, .*user_type, user_schema,/,
    );
  });

  it('refuses an empty list', () => {
    expect(() => resolveIncludedTypes('okta', [])).toThrow(/\(empty list\)/);
  });
});
