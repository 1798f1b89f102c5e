import { randomUUID } from 'node:crypto';

import type { Entry, Json } from './entry.js';
import { OrderedCollection } from './ordered-collection.js';

/** One target of an event (OpenAPI `LogTarget`): `User`, `UserGroup`, `AppInstance`, `PolicyEntity`... */
export interface LogTarget {
  id: string;
  type: string;
  alternateId: string;
  displayName: string;
}

/** Who acted: the admin behind the API token, or the service app of an access token (OpenAPI `LogActor`). */
export interface LogActor {
  id: string;
  type: string;
  alternateId: string;
  displayName: string;
}

/**
 * The org's System Log: events appended in publication order, as `/api/v1/logs` serves them
 * (OpenAPI `LogEvent`). Each write of the Management API the simulator serves appends the
 * event Okta records for it (Okta "Event types"), e.g. `user.lifecycle.delete.completed` with
 * the deleted user as target. Events are keyed by `uuid`, which is also the paging cursor.
 */
export class SystemLog {
  readonly events = new OrderedCollection<Entry>();

  /**
   * Appends an event published at `published` (ISO 8601, milliseconds kept as Okta does), made
   * from `client` (the request's IP address and raw user agent; OpenAPI `LogClient`).
   */
  record(
    eventType: string,
    displayMessage: string,
    actor: LogActor,
    targets: LogTarget[],
    published: string,
    client: { ipAddress: string; userAgent: string } = {
      ipAddress: '127.0.0.1',
      userAgent: 'okta-simulator',
    },
  ): Json {
    const data: Json = {
      actor,
      client: {
        userAgent: { rawUserAgent: client.userAgent, os: 'Unknown', browser: 'UNKNOWN' },
        zone: 'null',
        device: 'Unknown',
        ipAddress: client.ipAddress,
      },
      authenticationContext: { authenticationStep: 0, externalSessionId: 'unknown' },
      displayMessage,
      eventType,
      outcome: { result: 'SUCCESS' },
      published,
      securityContext: {},
      severity: 'INFO',
      debugContext: { debugData: {} },
      transaction: { type: 'WEB', id: randomUUID(), detail: {} },
      uuid: randomUUID(),
      version: '0',
      request: { ipChain: [] },
      target: targets,
    };
    this.events.set(String(data.uuid), { data });
    return data;
  }
}
