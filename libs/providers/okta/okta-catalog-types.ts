import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import {
  type CatalogEntry,
  type ChildEntry,
  type ChildObjectsEntry,
  type DerivedEntry,
  type HookEntry,
  type Incremental,
  parentOf as kitParentOf,
  type ParentRef,
  type SingleEntry,
  type TopLevelEntry,
} from '@libs/providers/kit/resource-catalog.js';
import type { OktaObject } from './okta-api-client.js';

/**
 * The kit's catalogue vocabulary (kit/resource-catalog.ts) for Okta's types and objects, with
 * Okta's hooks: the kinds okta-collector-hooks.ts collects.
 */
export type { Incremental, ParentRef };
export type TopLevelDefinition = TopLevelEntry<OktaObject>;
export type SingleDefinition = SingleEntry<OktaObject>;
export type ChildDefinition = ChildEntry<OktaResourceType, OktaObject>;
export type ChildObjectsDefinition = ChildObjectsEntry<OktaResourceType, OktaObject>;
export type DerivedDefinition = DerivedEntry<OktaResourceType>;

/** Types with their own collection rules (two user queries, one query per policy type). */
export type SpecialDefinition = HookEntry<'users' | 'policies', OktaObject> & { remember?: undefined };

/**
 * Admin role assignments (okta-collector-hooks.ts `adminRoles`): of users, found through
 * `/api/v1/iam/assignees/users`, and of groups, found through the groups' stats, so that only
 * admins are asked for their roles. `remember`: what children need from the assignment (its
 * targets: who holds it, which role).
 */
export type AdminRolesDefinition = HookEntry<'admin_roles', OktaObject> &
  Required<Pick<HookEntry<'admin_roles', OktaObject>, 'remember'>>;

/** How an Okta type is collected: a kind the kit's vocabulary names, or one of Okta's hooks. */
export type ResourceDefinition = CatalogEntry<
  OktaResourceType,
  OktaObject,
  SpecialDefinition | AdminRolesDefinition
>;

/** The parent type of a definition that has one. */
export const parentOf = (definition: ResourceDefinition): OktaResourceType | undefined =>
  kitParentOf(definition);
