import type { ResourceRecord } from '@libs/records/resource-record.js';

import { ProviderError } from '@libs/providers/provider-errors.js';

import {
  buildFlopack,
  parseFlopack,
  type Flopack,
  type FlopackConfig,
  type FlopackFlo,
  type FlopackGroup,
  type FlopackTable,
} from './flopack.js';
import { flowCards, isApiEndpointFlow } from './flow-cards.js';
import { csvRows } from './table-csv.js';

/** The Okta Workflows types a backup holds, in the order a re-import package lists them. */
export const WORKFLOWS_RESOURCE_TYPES = [
  'workflow_folder',
  'workflow_connection',
  'workflow_table',
  'workflow',
] as const;
export type WorkflowsResourceType = (typeof WORKFLOWS_RESOURCE_TYPES)[number];

/**
 * The member of every Workflows record that holds the export's own entry, as exported: kept so a
 * restore hands back exactly what Workflows made, and volatile (out of hashes and diffs) because
 * it carries the ids the designer mints anew on every export. Named as HAL names embedded
 * resources, `_embedded`, which Okta's volatile fields already hold: Workflows records added to
 * an Okta snapshot (`includeWorkflows`) then hash the same way as in a Workflows one.
 */
export const EXPORTED = '_embedded';

/** A table's rows as *Export to CSV* gave them, by table id. */
export type TableRows = ReadonlyMap<string, Array<Record<string, string>>>;

/** Parses the exporter's `tables[]` (`{ id, csv }`) into rows by table id; entries without CSV are skipped. */
export function tableRowsOf(tables: unknown): TableRows {
  const rows = new Map<string, Array<Record<string, string>>>();
  if (!Array.isArray(tables)) return rows;
  for (const table of tables as Array<{ id?: unknown; csv?: unknown }>)
    if (typeof table?.id === 'string' && typeof table.csv === 'string')
      rows.set(table.id, csvRows(table.csv));
  return rows;
}

/**
 * The records of an export, by type: a folder per `groups` entry, a flow per `flos` entry
 * (keyed by its id, its cards as flowCards makes them), a table per `tables` entry (its schema, and
 * its rows when the exporter returned them), a connection placeholder per `configs` entry with
 * the flows whose cards use it. Each record keeps its export entry under EXPORTED.
 */
export function recordsOfFlopack(
  flopack: Flopack,
  rows: TableRows = new Map(),
): Record<WorkflowsResourceType, ResourceRecord[]> {
  const { flos, configs, tables, groups } = flopack.data;
  const users = new Map<string, Array<{ id: string; name: string }>>();
  const flows = Object.values(flos).map((flo): ResourceRecord => {
    const cards = flowCards(flo);
    const connections = [
      ...new Set(Object.values(cards).flatMap((card) => (card.connection ? [card.connection] : []))),
    ].sort();
    for (const id of connections) users.set(id, [...(users.get(id) ?? []), { id: flo.id, name: flo.name }]);
    return {
      type: 'workflow',
      id: flo.id,
      name: flo.name,
      data: {
        name: flo.name,
        description: flo.description ?? '',
        folder: flo.data.group ?? null,
        scheduled: flo.data.scheduled ?? false,
        cron: flo.data.cron ?? {},
        apiEndpoint: isApiEndpointFlow(flo),
        connections,
        cards,
        [EXPORTED]: flo,
      },
    };
  });
  return {
    workflow_folder: Object.values(groups).map((group) => ({
      type: 'workflow_folder',
      id: group.id,
      name: group.data.name,
      data: {
        name: group.data.name,
        description: group.data.description ?? '',
        path: group.data.path ?? '',
        // The export's format, so a re-import package is written in it.
        exportFormat: { version: flopack.version, flags: flopack.flags ?? {} },
        [EXPORTED]: group,
      },
    })),
    workflow_connection: Object.values(configs).map((config) => ({
      type: 'workflow_connection',
      id: config.id,
      name: config.name,
      data: {
        name: config.name,
        module: config.module,
        flows: (users.get(config.id) ?? []).sort((a, b) => (a.id < b.id ? -1 : 1)),
        [EXPORTED]: config,
      },
    })),
    workflow_table: Object.values(tables).map((table) => ({
      type: 'workflow_table',
      id: table.id,
      name: table.name,
      data: {
        name: table.name,
        folder: table.data.group_id ?? null,
        columns: table.data.structure,
        ...(rows.has(table.id) ? { rows: rows.get(table.id) } : {}),
        [EXPORTED]: table,
      },
    })),
    workflow: flows.sort((a, b) => (a.id < b.id ? -1 : 1)),
  };
}

/**
 * A flopack of the given backed-up records (their EXPORTED entries): what a restore hands back
 * for the console's Import. Connections come as the placeholders they were (no data).
 */
export function flopackOfRecords(
  source: { version: string; flags?: Record<string, unknown> },
  records: Readonly<Partial<Record<WorkflowsResourceType, readonly ResourceRecord[]>>>,
  created: string,
): Flopack {
  const entries = <T>(type: WorkflowsResourceType) =>
    (records[type] ?? []).map((record) => record.data[EXPORTED] as T);
  return buildFlopack(
    source,
    {
      flos: entries<FlopackFlo>('workflow'),
      configs: entries<FlopackConfig>('workflow_connection'),
      tables: entries<FlopackTable>('workflow_table'),
      groups: entries<FlopackGroup>('workflow_folder'),
    },
    created,
  );
}

/**
 * The records of a `.folder` or `.flow` file an admin exported from the console (UTF-8 JSON, a
 * flopack): no table rows, which the console's export never holds.
 * @throws ProviderError `invalid_flopack` when the bytes are not JSON or not a flopack
 */
export function recordsOfExportFile(bytes: Uint8Array): Record<WorkflowsResourceType, ResourceRecord[]> {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new ProviderError('Not an Okta Workflows export: the file is not UTF-8 JSON', 'invalid_flopack');
  }
  return recordsOfFlopack(parseFlopack(json));
}
