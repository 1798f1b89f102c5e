/**
 * The kinds of identity provider a connection can hold (spec "Connections"; DESIGN section 3),
 * the primary kind first: Okta, Okta Workflows, Microsoft Entra ID.
 */
export const PROVIDER_KINDS = ['okta', 'okta_workflows', 'entra_id'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The kind POST /api/connections/create makes when the body names none (spec "Connections"). */
export const PRIMARY_PROVIDER_KIND: ProviderKind = PROVIDER_KINDS[0];
