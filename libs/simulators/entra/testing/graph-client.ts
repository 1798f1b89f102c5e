import { Agent, request } from 'undici';

import type { RunningEntraSimulator } from '@libs/simulators/entra/simulator.js';

/** An answer of the simulator: status, headers and the JSON body (`{}` when empty). */
export interface GraphAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown> & { value: Array<Record<string, unknown>> };
}

/** A Graph client of one app registration, as a tenant's admins or tests call the simulator. */
export interface GraphTestClient {
  /** `path` relative to the origin (`/v1.0/users`) or a whole URL (a next or delta link). */
  call(method: string, path: string, body?: unknown): Promise<GraphAnswer>;
  close(): Promise<void>;
}

/**
 * For specs: registers an app granted `roles` (or uses the app registration given), gets it a
 * token (client credentials) and calls the simulator with it, trusting the simulator's CA.
 */
export async function graphClient(
  sim: RunningEntraSimulator,
  roles: readonly string[] | { clientId: string; clientSecret: string },
): Promise<GraphTestClient> {
  const dispatcher = new Agent({ connect: { ca: sim.caCertPem } });
  const app = 'clientId' in roles ? roles : sim.registerApp(roles);
  const token = await request(`${sim.baseUrl}/${sim.tenantId}/oauth2/v2.0/token`, {
    method: 'POST',
    dispatcher,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      scope: 'https://graph.microsoft.com/.default',
      client_id: app.clientId,
      client_secret: app.clientSecret,
    }).toString(),
  });
  const { access_token: accessToken } = (await token.body.json()) as { access_token: string };
  return {
    async call(method, path, body) {
      const response = await request(path.startsWith('https:') ? path : `${sim.baseUrl}${path}`, {
        method: method as 'GET',
        dispatcher,
        headers: {
          authorization: `Bearer ${accessToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      return {
        status: response.statusCode,
        headers: response.headers,
        body: (text ? JSON.parse(text) : {}) as GraphAnswer['body'],
      };
    },
    close: () => dispatcher.close(),
  };
}

/**
 * The roles of an app that changes users, groups and members, applications, service principals,
 * administrative units and delegated permission grants, and restores deleted items.
 */
export const DIRECTORY_WRITER_ROLES = [
  'User.ReadWrite.All',
  'User.DeleteRestore.All',
  'Group.ReadWrite.All',
  'GroupMember.ReadWrite.All',
  'Application.ReadWrite.All',
  'AdministrativeUnit.ReadWrite.All',
  'DelegatedPermissionGrant.ReadWrite.All',
];

/**
 * One call to the simulated Graph as a client of the tenant makes it, for specs: an app
 * registered with `roles`, a client credentials token, then `method /v1.0<path>` with `body` as
 * JSON, over HTTPS trusting the simulator's CA.
 */
export async function graphCall(
  sim: RunningEntraSimulator,
  roles: readonly string[],
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<GraphAnswer> {
  const client = await graphClient(sim, roles);
  try {
    return await client.call(method, `/v1.0${path}`, body);
  } finally {
    await client.close();
  }
}
