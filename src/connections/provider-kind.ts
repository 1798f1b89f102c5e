/** The kinds of identity provider a connection can hold (spec "Connections"; DESIGN section 3). */
export type ProviderKind = 'okta' | 'okta_workflows' | 'entra_id';
