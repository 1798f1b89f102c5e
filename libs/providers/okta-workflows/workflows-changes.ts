import type { ConfigurationChange } from '@libs/providers/provider-connector.js';

/** The System Log events of Workflows changes (research note §1.5; Okta release notes, OKTA-669131). */
export const WORKFLOWS_EVENT_PREFIX = 'workflows.user.';

/**
 * Workflows events that change nothing: exports (the exporter's own run writes
 * `workflows.user.folder.export`), table views, delegated runs, cancelled executions.
 */
const READ_ONLY = /\.(export|view|schema\.export|execution\.cancel)$|^workflows\.user\.delegatedflow\./;

/** Deleting or turning off a flow or a connection can stop identity automation: high; the rest medium. */
const HIGH =
  /^workflows\.user\.(flow\.(delete|deactivate)|folder\.delete|table\.delete|connection\.(delete|revoke))$/;

/** The change an event records, or null for a read-only event or another product's event. */
export function workflowsChangeOf(event: Record<string, unknown>): ConfigurationChange | null {
  const eventType = typeof event.eventType === 'string' ? event.eventType : '';
  if (!eventType.startsWith(WORKFLOWS_EVENT_PREFIX) || READ_ONLY.test(eventType)) return null;
  return {
    eventType,
    severity: HIGH.test(eventType) ? 'high' : 'medium',
    published: String(event.published ?? ''),
  };
}
