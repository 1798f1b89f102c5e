import type { RestorePackage, RestorePackageInput } from '@libs/providers/restore-package.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

import { FLOPACK_DEFAULTS } from './flopack.js';
import { flopackOfRecords, type WorkflowsResourceType } from './workflow-records.js';
import { toCsv } from './table-csv.js';

/** Names as file names: no path separators or control characters. */
function fileName(name: string): string {
  const printable = [...name].map((char) => (char < ' ' ? '_' : char)).join('');
  return printable.replace(/[\\/:*?"<>|]/g, '_').trim() || 'table';
}

const NOTES = [
  'Nothing is written to Okta: Workflows has no import API. Import restore.folder in the Workflows console (a folder, Actions, Import).',
  'Connections come back as placeholders: re-authorize each one (RUNBOOK.md lists the flows using it).',
  'Table rows are not part of a folder export: load each tables/*.csv into its table after the import.',
  'Flows arrive off: an export holds no on/off state. Turn on the flows that ran before.',
];

/**
 * The re-import package of a Workflows backup (docs/okta-workflows.md "Restore"): `restore.folder`,
 * a flopack of the chosen flows and tables with the folders they live in and the connection
 * placeholders their cards use (without which the import cannot bind them); `tables/<name>.csv`,
 * the rows of each chosen table the backup holds; and `RUNBOOK.md`, the connections to
 * re-authorize and the flows using each, the flows to turn back on, and the API endpoint flows
 * whose callers must be told.
 */
export function workflowsRestorePackage(input: RestorePackageInput): RestorePackage {
  const { selection } = input;
  const chosen = (type: WorkflowsResourceType): ResourceRecord[] =>
    selection.types.has(type)
      ? (input.records[type] ?? []).filter((record) => !selection.ids || selection.ids.has(record.id))
      : [];
  const flows = chosen('workflow');
  const tables = chosen('workflow_table');
  const configIds = new Set(flows.flatMap((flow) => flow.data.connections as string[]));
  const folderIds = new Set([
    ...flows.map((flow) => flow.data.folder),
    ...tables.map((table) => table.data.folder),
    ...chosen('workflow_folder').map((folder) => folder.id),
  ]);
  const connections = (input.records.workflow_connection ?? []).filter((c) => configIds.has(c.id));
  const folders = (input.records.workflow_folder ?? []).filter((f) => folderIds.has(f.id));
  const format =
    (folders[0]?.data.exportFormat as { version: string; flags?: Record<string, unknown> } | undefined) ??
    FLOPACK_DEFAULTS;
  const flopack = flopackOfRecords(
    format,
    { workflow: flows, workflow_table: tables, workflow_connection: connections, workflow_folder: folders },
    input.now,
  );
  const csvs = tables
    .filter((table) => Array.isArray(table.data.rows))
    .map((table) => ({
      path: `tables/${fileName(table.name ?? table.id)}.csv`,
      content: toCsv(
        (table.data.columns as Array<{ name: string }>).map((column) => column.name),
        table.data.rows as Array<Record<string, string>>,
      ),
    }));
  return {
    files: [
      { path: 'restore.folder', content: JSON.stringify(flopack) },
      ...csvs,
      { path: 'RUNBOOK.md', content: runbook(input, flows, tables, connections, csvs.length) },
    ],
    counts: {
      workflow_folder: folders.length,
      workflow_connection: connections.length,
      workflow_table: tables.length,
      workflow: flows.length,
    },
    notes: NOTES,
  };
}

function runbook(
  input: RestorePackageInput,
  flows: ResourceRecord[],
  tables: ResourceRecord[],
  connections: ResourceRecord[],
  csvCount: number,
): string {
  const list = (items: string[]) =>
    items.length > 0 ? items.map((item) => `- ${item}`).join('\n') : '- none';
  const named = (record: ResourceRecord) => `${record.name ?? record.id} (\`${record.id}\`)`;
  const flowNames = new Map(flows.map((flow) => [flow.id, flow.name ?? flow.id]));
  return `# Re-import runbook

Backup \`${input.backup.id}\` of ${input.backup.orgUrl}, taken ${input.backup.startedAt}; package made ${input.now}.
Okta Workflows has no import API: every step below is done by hand in the Workflows console.

## 1. Import the folder

In the Workflows console, open the folder to restore into, choose **Actions > Import** and drop
\`restore.folder\`: ${flows.length} flow(s), ${tables.length} table(s). Import may give flows new ids.

## 2. Re-authorize the connections

The export holds each connection as a placeholder without credentials. Bind each to a live
connection (or create one and authorize it), then check the flows that use it:

${list(
  connections.map(
    (c) =>
      `**${c.data.name as string}** (${c.data.module as string}): ${
        ((c.data.flows as Array<{ id: string }>) ?? [])
          .filter((f) => flowNames.has(f.id))
          .map((f) => flowNames.get(f.id))
          .join(', ') || 'no chosen flow'
      }`,
  ),
)}

## 3. Load the table rows

${csvCount > 0 ? `Import each file of \`tables/\` into the table of the same name (${csvCount} file(s)).` : 'The backup holds no table rows for the chosen tables (the export carries none; the exporter returns them only for the tables it was set up for).'}

${list(tables.map(named))}

## 4. Turn the flows back on

An export holds no on/off state, so every imported flow is off. The System Log's
\`workflows.user.flow.create\`, \`.activate\` and \`.deactivate\` events (90 days) said, at backup time:

On (turn these back on):

${list(flows.filter((flow) => flow.data.active === true).map(named))}

Off (leave off):

${list(flows.filter((flow) => flow.data.active === false).map(named))}

Not known (no event in the log's 90 days, or an uploaded export): check before turning on:

${list(flows.filter((flow) => typeof flow.data.active !== 'boolean').map(named))}

## 5. Tell the callers of API endpoint flows

These flows start from an API endpoint. If the import gave them a new alias or client token,
their callers (\`POST https://{org}.workflows.okta.com/api/flo/{alias}/invoke\`) must be updated:

${list(flows.filter((flow) => flow.data.apiEndpoint === true).map(named))}
`;
}
