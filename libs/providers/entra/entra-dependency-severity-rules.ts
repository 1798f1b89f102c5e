import { type ChangeFacts, valueAt } from '@libs/diff/change-facts.js';
import type { SeverityRule } from '@libs/diff/severity-rule.js';

/** The members of an `internalDomainFederation` that hold its token-signing certificates. */
const SIGNING = ['signingCertificate', 'nextSigningCertificate'];

/**
 * A domain's federation changed what signs its users' tokens: a certificate (`signingCertificate`,
 * `nextSigningCertificate`) or the issuer. Whoever holds the matching key signs in as any user
 * of the domain, the persistence route Microsoft and CISA describe for a rogue federation
 * (Microsoft Entra "Detect and remediate illicit federated domains"; CISA AA21-008A).
 */
function federationSigningChanged(facts: ChangeFacts): boolean {
  if (facts.resourceType !== 'domain_federation_configuration' || facts.action !== 'modified') return false;
  return [...SIGNING, 'issuerUri'].some(
    (path) => JSON.stringify(valueAt(facts.before, path)) !== JSON.stringify(valueAt(facts.after, path)),
  );
}

const ofType =
  (...types: string[]) =>
  (facts: ChangeFacts): boolean =>
    types.includes(facts.resourceType);

/**
 * The critical rules of what restores depend on: a new federated domain (a federation added,
 * the known backdoor of a tenant) and a federation's signing certificate or issuer changed.
 */
export const ENTRA_FEDERATION_RULES: readonly SeverityRule[] = [
  {
    id: 'entra-federation-added',
    severity: 'critical',
    description:
      'A domain was federated with an identity provider (a new `federationConfiguration`): that provider can now sign in as any user of the domain.',
    applies: (facts) => facts.resourceType === 'domain_federation_configuration' && facts.action === 'added',
  },
  {
    id: 'entra-federation-signing-changed',
    severity: 'critical',
    description:
      "A federated domain's token-signing certificate (`signingCertificate`, `nextSigningCertificate`) or issuer changed: whoever holds the new key signs in as the domain's users.",
    applies: federationSigningChanged,
  },
];

/** The other rules of what restores depend on, before the table's catch-alls. */
export const ENTRA_DEPENDENCY_RULES: readonly SeverityRule[] = [
  {
    id: 'entra-federation-changed',
    severity: 'high',
    description:
      'Any other change to a domain federation, its removal, or a change to an external identity provider (who may sign users in).',
    applies: ofType('domain_federation_configuration', 'identity_provider'),
  },
  {
    id: 'entra-pim-settings-changed',
    severity: 'high',
    description:
      "A role's PIM settings changed (a role management policy's rules: expiration, justification, MFA, approval on activation), or which policy governs a role.",
    applies: ofType('role_management_policy', 'role_management_policy_assignment'),
  },
  {
    id: 'entra-ca-dependency-changed',
    severity: 'high',
    description:
      'An authentication context or a terms of use agreement that conditional access policies require changed, appeared or went.',
    applies: ofType('authentication_context_class_reference', 'terms_of_use_agreement'),
  },
  {
    id: 'entra-app-management-policy-changed',
    severity: 'high',
    description:
      'The default or a custom app management policy changed (which credentials and identifier URIs apps may have).',
    applies: ofType('default_app_management_policy', 'app_management_policy'),
  },
  {
    id: 'entra-security-attribute-changed',
    severity: 'medium',
    description:
      'A custom security attribute set or definition changed (conditional access app filters and access decisions read them).',
    applies: ofType('attribute_set', 'custom_security_attribute_definition'),
  },
  {
    id: 'entra-user-relations-changed',
    severity: 'low',
    description: "A user's manager or licences changed.",
    applies: ofType('user_manager', 'user_license'),
  },
  {
    // Dynamic membership rules (`user.extension_<appId>_<name>`) and token claims read directory
    // extension values ("Dynamic membership rules for groups", "Add custom data to resources using
    // extensions"): a changed value can move a user in or out of a group, or change a claim.
    id: 'entra-user-extension-values-changed',
    severity: 'medium',
    description:
      "A user's directory extension values changed (dynamic group rules and token claims can read them).",
    applies: ofType('user_extension_values'),
  },
];
