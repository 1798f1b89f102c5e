import { invalidToken, notFound } from '@libs/simulators/okta/http/okta-error.js';
import { json } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { objectTarget, recordEvent } from '@libs/simulators/okta/resources/audit.js';

import { cardOf, CARD_KINDS } from './card-catalog.js';
import { exportFolder, tableCsv } from './flopack-export.js';
import { EXPORTER_ALIAS, generateWorkflows, type WorkflowsSeed } from './generate-workflows.js';
import type { CardInput, WorkflowFlow, WorkflowsOrgData } from './workflows-org.js';

/** The scope an OAuth-secured API endpoint flow demands (Okta Workflows "Secure an API endpoint flow with OAuth 2.0"). */
export const INVOKE_SCOPE = 'okta.workflows.invoke.manage';

/** What tests do to the Workflows org, as its admins would in the console (each change is logged). */
export interface WorkflowsHandle {
  /** the exporter flow's alias */
  readonly exporterAlias: string;
  /** the org's objects as the console holds them (read-only use) */
  readonly data: WorkflowsOrgData;
  /** times the exporter flow ran */
  invocations(): number;
  /** Sets one input of the card at `cardIndex` of a flow (a save: `workflows.user.flow.save`). */
  changeCardInput(flowId: string, cardIndex: number, key: string, value: unknown): void;
  /** Adds a flow of the given cards to the folder (`workflows.user.flow.create`); returns its id. */
  addFlow(name: string, cards: Array<keyof typeof CARD_KINDS>): string;
  /** Deletes a flow (`workflows.user.flow.delete`). */
  deleteFlow(flowId: string): void;
  /** Turns a flow on or off (`workflows.user.flow.activate` / `.deactivate`). */
  setActive(flowId: string, active: boolean): void;
}

/**
 * The Workflows personality of the Okta simulator: the host `{org}.workflows.okta.com` answers
 * `POST /api/flo/{alias}/invoke` of API endpoint flows (Okta Workflows "Invoke a flow with an API
 * endpoint"). Only the exporter flow is served: secured with OAuth 2.0, it accepts a Bearer access
 * token of the org authorization server carrying `okta.workflows.invoke.manage` ("Custom
 * authorization servers aren't supported"), runs *Export Folder* on its folder and *Export to CSV*
 * on each table, and answers the JSON the product's exporter folder returns (docs/okta-workflows.md):
 * `{ folder: { id, name }, export: <flopack>, tables: [{ id, name, csv }] }`.
 *
 * Changes write `workflows.user.*` events to the org's System Log (Okta release notes, event
 * types `workflows.user.flow.save` ...); each export writes `workflows.user.folder.export`.
 */
export function workflowsHost(
  org: OrgContext,
  seed: WorkflowsSeed,
): { routes: Route[]; handle: WorkflowsHandle } {
  const data = generateWorkflows(seed);
  const folder = [...data.folders.values()][0];
  let invocations = 0;
  const flowTarget = (flow: WorkflowFlow) => objectTarget('Flow', { id: flow.id, name: flow.name });
  const existing = (flowId: string): WorkflowFlow => {
    const flow = data.flows.get(flowId);
    if (!flow) throw new Error(`no flow ${flowId}`);
    return flow;
  };
  const connections = Object.fromEntries([...data.connections.values()].map((c) => [c.module, c.id]));

  const handle: WorkflowsHandle = {
    exporterAlias: EXPORTER_ALIAS,
    data,
    invocations: () => invocations,
    changeCardInput(flowId, cardIndex, key, value) {
      const flow = existing(flowId);
      const card = flow.cards[cardIndex];
      if (!card) throw new Error(`flow ${flowId} has no card ${cardIndex}`);
      const input = card.inputs.find((candidate) => candidate.key === key);
      if (input) input.data = value;
      else card.inputs.push({ key, type: typeof value as CardInput['type'], data: value });
      recordEvent(org, 'workflows.user.flow.save', `Save flow`, [flowTarget(flow)]);
    },
    addFlow(name, cards) {
      const id = crypto.randomUUID();
      const flow: WorkflowFlow = {
        id,
        name,
        description: '',
        folderId: folder.id,
        active: false,
        scheduled: false,
        cron: {},
        cards: cards.map((kind) => cardOf(CARD_KINDS[kind], connections)),
      };
      data.flows.set(id, flow);
      recordEvent(org, 'workflows.user.flow.create', 'Create flow', [flowTarget(flow)]);
      return id;
    },
    deleteFlow(flowId) {
      const flow = existing(flowId);
      data.flows.delete(flowId);
      recordEvent(org, 'workflows.user.flow.delete', 'Delete flow', [flowTarget(flow)]);
    },
    setActive(flowId, active) {
      const flow = existing(flowId);
      flow.active = active;
      const action = active ? 'activate' : 'deactivate';
      recordEvent(org, `workflows.user.flow.${action}`, `${active ? 'Activate' : 'Deactivate'} flow`, [
        flowTarget(flow),
      ]);
    },
  };
  // The generated org was set up within the System Log's 90 days: its flows were created (off),
  // and those that are on were turned on, and the log says so.
  for (const flow of data.flows.values()) {
    recordEvent(org, 'workflows.user.flow.create', 'Create flow', [flowTarget(flow)]);
    if (flow.active) recordEvent(org, 'workflows.user.flow.activate', 'Activate flow', [flowTarget(flow)]);
  }

  const routes: Route[] = [
    {
      method: 'POST',
      template: '/api/flo/{alias}/invoke',
      access: { kind: 'admin', scopes: [INVOKE_SCOPE] },
      handle: (context) => {
        // The Workflows host knows nothing of Okta API tokens: OAuth-secured flows take Bearer only.
        if (!/^bearer\s/i.test(context.headers.authorization ?? '')) throw invalidToken();
        if (context.params.alias !== EXPORTER_ALIAS) throw notFound(context.params.alias, 'Flow');
        invocations += 1;
        const flopack = exportFolder(data, org.now());
        recordEvent(org, 'workflows.user.folder.export', 'Export folder', [
          objectTarget('Folder', { id: folder.id, name: folder.name }),
        ]);
        return json(200, {
          folder: { id: folder.id, name: folder.name },
          export: flopack,
          tables: [...data.tables.values()].map((table) => ({
            id: table.id,
            name: table.name,
            csv: tableCsv(table),
          })),
        });
      },
    },
  ];
  return { routes, handle };
}
