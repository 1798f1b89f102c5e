/**
 * The kind of identity provider a connection holds (spec "Connections": `okta`, `okta_workflows`,
 * `entra_id`): the `kind` of a descriptor in the provider registry (`registry.ts`), which is the one
 * list of kinds. A stored kind is checked against the registry when the connection is created.
 */
export type ProviderKind = string;
