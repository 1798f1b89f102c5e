import type { CardInput, WorkflowCard } from './workflows-org.js';

/** A kind of card the generator places, as the Workflows designer names it in an export. */
export interface CardKind {
  address: string;
  name: string;
  /** the connector whose connection it runs with, or null for a function card */
  module: string | null;
  inputs: readonly CardInput[];
}

const OKTA = 'root:channels:http:okta:1.0.685';

/**
 * Cards seen in real exports (okta/workflows-templates, format study only): connector cards are
 * `root:channels:http:<module>:<version>:<method>`, function cards `root:kernel:<module>:0.0.1:<method>`,
 * and an API endpoint flow starts with `root:kernel:http:0.0.1:accept` ("API Endpoint"). Okta
 * connector action keys follow the connector's action names (Okta Workflows "Okta connector
 * actions"); `assignAdminRoleToUser` is our guess at the key of "Assign Admin Role to User".
 */
export const CARD_KINDS = {
  userCreated: { address: `${OKTA}:userCreated`, name: 'User Created', module: 'okta', inputs: [] },
  userDeactivated: {
    address: `${OKTA}:userDeactivated`,
    name: 'User Deactivated',
    module: 'okta',
    inputs: [],
  },
  apiEndpoint: { address: 'root:kernel:http:0.0.1:accept', name: 'API Endpoint', module: null, inputs: [] },
  readUser: {
    address: `${OKTA}:readUser`,
    name: 'Read User',
    module: 'okta',
    inputs: [{ key: 'ID or Login', type: 'string', data: '' }],
  },
  addUserToGroup: {
    address: `${OKTA}:addUserToGroup`,
    name: 'Add User to Group',
    module: 'okta',
    inputs: [{ key: 'Group ID', type: 'string', data: '00g1b2c3d4e5f6g7h8i9' }],
  },
  deactivateUser: {
    address: `${OKTA}:deactivateUser`,
    name: 'Deactivate User',
    module: 'okta',
    inputs: [{ key: 'Send Email', type: 'boolean', data: false }],
  },
  assignAdminRoleToUser: {
    address: `${OKTA}:assignAdminRoleToUser`,
    name: 'Assign Admin Role to User',
    module: 'okta',
    inputs: [{ key: 'Role', type: 'string', data: 'HELP_DESK_ADMIN' }],
  },
  sendMessage: {
    address: 'root:channels:http:slack:1.0.120:sendMessage',
    name: 'Send Message',
    module: 'slack',
    inputs: [
      { key: 'Channel', type: 'string', data: '#it-ops' },
      { key: 'Message', type: 'string', data: 'Done' },
    ],
  },
  compose: {
    address: 'root:kernel:string:0.0.1:compose',
    name: 'Compose',
    module: null,
    inputs: [{ key: 'text', type: 'string', data: 'User {{login}} processed' }],
  },
  construct: {
    address: 'root:kernel:object:0.0.1:construct',
    name: 'Construct',
    module: null,
    inputs: [{ key: 'status', type: 'string', data: 'ok' }],
  },
  createRow: {
    address: 'root:kernel:stash:0.0.1:createRow',
    name: 'Create Row',
    module: null,
    inputs: [{ key: 'Table', type: 'string', data: '' }],
  },
  returnRaw: { address: 'root:kernel:control:0.0.1:returnRaw', name: 'Return Raw', module: null, inputs: [] },
} as const satisfies Record<string, CardKind>;

export type CardKindName = keyof typeof CARD_KINDS;

/** A card of `kind`, its connector cards bound to `connections[module]`. */
export function cardOf(kind: CardKind, connections: Readonly<Record<string, string>>): WorkflowCard {
  return {
    address: kind.address,
    name: kind.name,
    configId: kind.module === null ? null : (connections[kind.module] ?? null),
    inputs: kind.inputs.map((input) => ({ ...input })),
  };
}
