import type { ConfigurationChange } from '@libs/providers/provider-connector.js';
import type { OktaApiClient, OktaObject } from './okta-api-client.js';
import { LOG_PAGE_LIMIT, LOGS_TEMPLATE } from './okta-deletions.js';

type Severity = ConfigurationChange['severity'];

/**
 * System Log event type prefixes that change configuration, most specific first, with the
 * severity of such a change (docs/scores.md "Drift"; Okta event types catalog). Sign-ins,
 * sessions and other activity events match none and are not drift.
 */
const CONFIGURATION_EVENTS: ReadonlyArray<[string, Severity]> = [
  ['policy.', 'critical'],
  ['user.account.privilege.', 'critical'],
  ['iam.', 'critical'],
  ['security.authenticator.', 'critical'],
  ['system.idp.', 'critical'],
  ['app.oauth2.as.', 'high'],
  ['application.lifecycle.', 'high'],
  ['zone.', 'high'],
  ['network_zone.', 'high'],
  ['event_hook.', 'high'],
  ['inline_hook.', 'high'],
  ['trusted_origin.', 'high'],
  ['system.', 'high'],
  ['application.user_membership.', 'medium'],
  ['application.', 'medium'],
  ['group.', 'medium'],
  ['mappings.', 'medium'],
  ['user.lifecycle.', 'low'],
  ['user.account.update_profile', 'low'],
];

/** The severity of a configuration change event, or null for an activity event. */
export function driftSeverity(eventType: string): Severity | null {
  return CONFIGURATION_EVENTS.find(([prefix]) => eventType.startsWith(prefix))?.[1] ?? null;
}

/**
 * Configuration changes recorded in the System Log between `since` and `until` (ISO 8601),
 * oldest first (`configurationEventsFromLog`), as drift.
 */
export async function* configurationChangesFromLog(
  api: OktaApiClient,
  since: string,
  until: string,
  signal?: AbortSignal,
): AsyncGenerator<ConfigurationChange> {
  for await (const event of configurationEventsFromLog(api, since, until, signal)) {
    const change = changeOf(event);
    if (change) yield change;
  }
}

/**
 * The System Log events between `since` and `until` (ISO 8601) that change configuration,
 * oldest first: a bounded query (sortOrder ASCENDING, 1000 events a page) as in
 * okta-deletions.ts; activity events (sign-ins, sessions) are skipped.
 */
export async function* configurationEventsFromLog(
  api: OktaApiClient,
  since: string,
  until: string,
  signal?: AbortSignal,
): AsyncGenerator<OktaObject> {
  const list = {
    template: LOGS_TEMPLATE,
    query: { since, until, sortOrder: 'ASCENDING', limit: LOG_PAGE_LIMIT },
    signal,
  };
  for await (const page of api.pages(list)) {
    if (page.length === 0) return;
    for (const event of page)
      if (driftSeverity(typeof event.eventType === 'string' ? event.eventType : '') !== null) yield event;
  }
}

function changeOf(event: OktaObject): ConfigurationChange | null {
  const eventType = typeof event.eventType === 'string' ? event.eventType : '';
  const severity = driftSeverity(eventType);
  if (!severity) return null;
  return { eventType, severity, published: String(event.published ?? '') };
}
