import { Prng } from '@libs/simulators/kit/seed/prng.js';

import { CARD_KINDS, type CardKindName, cardOf } from './card-catalog.js';
import type { WorkflowFlow, WorkflowsOrgData } from './workflows-org.js';

/** Sizes of a generated Workflows org; every one deterministic from `seed`. */
export interface WorkflowsSeed {
  /** flows besides the exporter flow; default 6 */
  flows?: number;
  /** tables; default 2 */
  tables?: number;
  /** rows per table; default 3 */
  rows?: number;
  seed?: number;
}

/** The alias the exporter flow is invoked by (its API endpoint's `/api/flo/{alias}/invoke`). */
export const EXPORTER_ALIAS = 'idp-backup-exporter';

/** Flow shapes the generator cycles through: event, then actions. */
const SHAPES: ReadonlyArray<{ name: string; cards: CardKindName[] }> = [
  { name: 'Onboard new hire', cards: ['userCreated', 'readUser', 'addUserToGroup', 'sendMessage'] },
  { name: 'Offboard leaver', cards: ['userDeactivated', 'readUser', 'deactivateUser', 'compose'] },
  { name: 'Grant help desk role', cards: ['apiEndpoint', 'readUser', 'assignAdminRoleToUser', 'returnRaw'] },
  { name: 'Log new accounts', cards: ['userCreated', 'construct', 'createRow'] },
  { name: 'Notify IT', cards: ['apiEndpoint', 'compose', 'sendMessage', 'returnRaw'] },
];

/** A UUID v4-shaped id from the PRNG, so ids repeat with the seed. */
export function seededUuid(prng: Prng): string {
  const hex = Array.from({ length: 32 }, () => prng.int(0, 15).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

/**
 * A Workflows org from `seed`: one folder, an Okta and a Slack connection, `flows` flows built
 * from SHAPES (most on), and `tables` tables of four columns with `rows` rows. The exporter flow
 * lives in a folder of its own (docs/okta-workflows.md), so it is not part of this folder's export.
 */
export function generateWorkflows(seed: WorkflowsSeed = {}): WorkflowsOrgData {
  const prng = Prng.seeded(seed.seed ?? 1);
  const folderId = seededUuid(prng);
  const connections = { okta: seededUuid(prng), slack: seededUuid(prng) };
  const data: WorkflowsOrgData = {
    folders: new Map([[folderId, { id: folderId, name: 'Identity automation', description: '', path: '' }]]),
    flows: new Map(),
    tables: new Map(),
    connections: new Map([
      [connections.okta, { id: connections.okta, name: 'Okta', module: 'okta' }],
      [connections.slack, { id: connections.slack, name: 'Slack IT', module: 'slack' }],
    ]),
  };
  for (let t = 0; t < (seed.tables ?? 2); t++) {
    const id = seededUuid(prng);
    data.tables.set(id, {
      id,
      name: t === 0 ? 'Audit trail' : `Lookup ${t}`,
      folderId,
      columns: [
        { name: 'Login', type: 'str', default: '' },
        { name: 'When', type: 'dte', default: '' },
        { name: 'Processed', type: 'bln', default: 'false' },
        { name: 'Score', type: 'dec', default: '0' },
      ],
      rows: Array.from({ length: seed.rows ?? 3 }, (_, r) => ({
        Login: `user${prng.int(100, 999)}@example.com`,
        When: new Date(Date.UTC(2026, 0, 1 + r)).toISOString(),
        Processed: String(prng.chance(0.5)),
        Score: String(prng.int(0, 100) / 10),
      })),
    });
  }
  const tableIds = [...data.tables.keys()];
  for (let f = 0; f < (seed.flows ?? 6); f++) {
    const shape = SHAPES[f % SHAPES.length];
    const flow: WorkflowFlow = {
      id: seededUuid(prng),
      name: f < SHAPES.length ? shape.name : `${shape.name} ${Math.floor(f / SHAPES.length) + 1}`,
      description: '',
      folderId,
      active: prng.chance(0.8),
      scheduled: false,
      cron: {},
      cards: shape.cards.map((kind) => cardOf(CARD_KINDS[kind], connections)),
    };
    for (const card of flow.cards)
      if (card.address === CARD_KINDS.createRow.address && tableIds.length > 0)
        card.inputs = [{ key: 'Table', type: 'string', data: prng.pick(tableIds) }];
    data.flows.set(flow.id, flow);
  }
  return data;
}
