/**
 * The objects of a simulated Okta Workflows org, in a stable form (what the console holds), from
 * which exports are made (flopack-export.ts). Ids of folders, flows, tables and connections are
 * kept; the per-card and per-input ids an export carries are minted afresh by each export.
 */

/** One input of a card: its key as the card names it and its value. */
export interface CardInput {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'object';
  data: unknown;
}

/** One card of a flow (an element of the flopack's `data.methods`). */
export interface WorkflowCard {
  /** e.g. `root:channels:http:okta:1.0.685:deactivateUser` or `root:kernel:object:0.0.1:construct` */
  address: string;
  /** the card's title, `node.data.name` (`Deactivate User`) */
  name: string;
  /** the connection it runs with (a key of `configs`), or null for a function card */
  configId: string | null;
  inputs: CardInput[];
}

export interface WorkflowFlow {
  id: string;
  name: string;
  description: string;
  folderId: string;
  /** on or off in the console: not part of an export (Okta Workflows help, "Export and import") */
  active: boolean;
  scheduled: boolean;
  cron: Record<string, unknown>;
  cards: WorkflowCard[];
}

export interface WorkflowTableColumn {
  name: string;
  type: 'str' | 'dte' | 'bln' | 'dec';
  default: string;
}

export interface WorkflowTable {
  id: string;
  name: string;
  folderId: string;
  columns: WorkflowTableColumn[];
  /** rows by column name, values as *Export to CSV* writes them (text) */
  rows: Array<Record<string, string>>;
}

export interface WorkflowConnection {
  id: string;
  name: string;
  /** the connector, e.g. `okta`, `slack` */
  module: string;
}

export interface WorkflowFolder {
  id: string;
  name: string;
  description: string;
  /** the parent folder's path, '' for a top-level folder */
  path: string;
}

/** A Workflows org: the folder the exporter flow exports, its flows, tables and connections. */
export interface WorkflowsOrgData {
  folders: Map<string, WorkflowFolder>;
  flows: Map<string, WorkflowFlow>;
  tables: Map<string, WorkflowTable>;
  connections: Map<string, WorkflowConnection>;
}
