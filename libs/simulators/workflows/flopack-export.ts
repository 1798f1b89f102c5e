import { randomBytes } from 'node:crypto';

import type { WorkflowCard, WorkflowFlow, WorkflowTable, WorkflowsOrgData } from './workflows-org.js';

/** The `flags` every real export carries (okta/workflows-templates, versions 1.2.0 to 1.5.0). */
const FLAGS = { 'auto-transform': true, looseBooleans: true, looseStrings: true, looseNulls: true };
export const FLOPACK_VERSION = '1.5.0';

/** Ids the designer mints for cards and their inputs, e.g. `-1-GnDdfs`: new in every export. */
function designerId(): string {
  return randomBytes(7).toString('base64url').slice(0, 9);
}

/** `root:channels:http:okta:1.0.685:deactivateUser` -> module `okta`, method `deactivateUser`, kernel false. */
function addressParts(address: string): { module: string; method: string; kernel: boolean; version: string } {
  const parts = address.split(':');
  const kernel = parts[1] === 'kernel';
  return {
    module: kernel ? parts[2] : parts[3],
    version: parts[parts.length - 2],
    method: parts[parts.length - 1],
    kernel,
  };
}

function methodOf(card: WorkflowCard): Record<string, unknown> {
  const { module, method, version } = addressParts(card.address);
  const channel = card.address.split(':').slice(0, -2).join(':');
  const inputs: Record<string, unknown> = {};
  card.inputs.forEach((input, index) => {
    const id = designerId();
    inputs[id] = {
      id,
      group: null,
      key: input.key,
      value: { error: false, type: input.type, collection: false, data: input.data, available: [] },
      required: false,
      ref: false,
      metadata: { index },
      flags: 'd',
    };
  });
  return {
    joins: {},
    address: card.address,
    parents: {
      version: { address: `${channel}:${version}`, key: version, data: { name: version } },
      channel: { address: channel, key: module, data: { name: module } },
    },
    uuid: designerId(),
    branches: {},
    node: {
      key: method,
      data: { name: card.name },
      model: {
        type: 'method',
        _v: 2,
        key: method,
        metadata: { id: null, name: card.name, description: null },
        config: card.configId,
        inputs: { extensible: false, rules: {}, data: inputs },
        outputs: { extensible: false, rules: {}, data: {} },
        runtime: {},
      },
    },
    pins: {},
  };
}

function floOf(flow: WorkflowFlow): Record<string, unknown> {
  return {
    id: flow.id,
    name: flow.name,
    description: flow.description,
    data: {
      id: null,
      uuid: flow.id,
      display: {
        preview: flow.cards.map((card) => {
          const { module, method, kernel } = addressParts(card.address);
          return { module, name: method, kernel };
        }),
        eventConnecterName: flow.cards[0]?.name ?? null,
        isCallable: false,
      },
      tree: { id: 1, name: 'all' },
      methods: flow.cards.map(methodOf),
      orderings: {},
      cron: flow.cron,
      scheduled: flow.scheduled,
      security_level: null,
      log: true,
      inheritLog: true,
      group: flow.folderId,
      templateName: null,
    },
  };
}

function tableOf(table: WorkflowTable): Record<string, unknown> {
  return {
    id: table.id,
    name: table.name,
    data: {
      class: 'simple',
      group_id: table.folderId,
      structure: table.columns.map((column) => ({ ...column })),
    },
  };
}

/**
 * A folder export as *Export Folder* and the console make it (Okta Workflows help "Export and
 * import flows"; shape of the real exports in okta/workflows-templates, research note §1.4):
 * `{ type: "flopack", version, created, flags, data: { flos, configs, tables, groups } }`, with no
 * connection secret (`configs[].data` null), no table row and no on/off state. Card and input ids
 * are minted afresh, as the designer does on each export.
 */
export function exportFolder(org: WorkflowsOrgData, nowMs: number): Record<string, unknown> {
  const flos = Object.fromEntries([...org.flows.values()].map((flow) => [flow.id, floOf(flow)]));
  const used = new Set([...org.flows.values()].flatMap((flow) => flow.cards.map((card) => card.configId)));
  return {
    type: 'flopack',
    version: FLOPACK_VERSION,
    created: new Date(nowMs).toISOString(),
    flags: FLAGS,
    data: {
      flos,
      configs: Object.fromEntries(
        [...org.connections.values()]
          .filter((connection) => used.has(connection.id))
          .map(({ id, name, module }) => [id, { id, name, module, data: null }]),
      ),
      tables: Object.fromEntries([...org.tables.values()].map((table) => [table.id, tableOf(table)])),
      groups: Object.fromEntries(
        [...org.folders.values()].map(({ id, name, description, path }) => [
          id,
          { id, data: { name, description, path } },
        ]),
      ),
    },
  };
}

/** RFC 4180 text of one field: quoted when it holds a comma, a quote or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A table's rows as *Export to CSV* writes them: a header of the column names, then one line a row. */
export function tableCsv(table: WorkflowTable): string {
  const names = table.columns.map((column) => column.name);
  return [names, ...table.rows.map((row) => names.map((name) => row[name] ?? ''))]
    .map((fields) => fields.map(csvField).join(','))
    .join('\r\n');
}
