/**
 * The Entra ID types a backup collects, in dependency order (parents first, the order a restore
 * would apply them): the tenant (organization, branding, domains and their federation, identity
 * providers, custom security attributes), named locations, authentication contexts and terms of
 * use (which conditional access policies name), users with their managers and licences, groups
 * and what hangs off them, administrative units, app management policies, applications and
 * service principals with their credentials, grants and assignments, directory roles (custom
 * definitions, their PIM settings, PIM schedules before the role assignments an active schedule
 * also is, scoped to units), then the policies.
 * Names are Graph's own, singular snake_case, with `user`, `group` and `group_membership` where
 * the concept is Okta's too (docs/resource-types.md "Microsoft Entra ID"). Record ids are Graph's object ids;
 * a domain's is its name, a cross-tenant partner's its tenant id, a user's manager, licences and
 * directory extension values the user's; a child read under a parent is
 * `<parentId>:<childId>` (a membership or owner `<parentId>:<memberId>`), except an
 * authentication method configuration, whose id (`Fido2`...) is already the tenant's only one.
 */
export const ENTRA_RESOURCE_TYPES = [
  'organization',
  'organizational_branding',
  'domain',
  'domain_federation_configuration',
  'identity_provider',
  'attribute_set',
  'custom_security_attribute_definition',
  'named_location',
  'authentication_context_class_reference',
  'terms_of_use_agreement',
  'user',
  'user_manager',
  'user_license',
  'group',
  'group_membership',
  'group_owner',
  'group_setting',
  'group_lifecycle_policy',
  'administrative_unit',
  'administrative_unit_member',
  'default_app_management_policy',
  'app_management_policy',
  'application',
  'application_owner',
  'federated_identity_credential',
  'extension_property',
  'user_extension_values',
  'service_principal',
  'app_role_assignment',
  'oauth2_permission_grant',
  'role_definition',
  'role_management_policy',
  'role_management_policy_assignment',
  'role_eligibility_schedule',
  'role_assignment_schedule',
  'role_assignment',
  'scoped_role_membership',
  'authentication_strength_policy',
  'conditional_access_policy',
  'authorization_policy',
  'authentication_methods_policy',
  'authentication_method_configuration',
  'identity_security_defaults_enforcement_policy',
  'admin_consent_request_policy',
  'permission_grant_policy',
  'token_lifetime_policy',
  'token_issuance_policy',
  'claims_mapping_policy',
  'home_realm_discovery_policy',
  'cross_tenant_access_policy',
  'cross_tenant_access_policy_configuration_default',
  'cross_tenant_access_policy_configuration_partner',
] as const;

export type EntraResourceType = (typeof ENTRA_RESOURCE_TYPES)[number];
