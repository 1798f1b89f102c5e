import { OKTA_RESOURCE_TYPES } from '@libs/providers/okta/okta-resource-types.js';
import { oktaRestoreScopes } from '@libs/providers/okta/okta-scopes.js';
import pMap from 'p-map';
import type { RunningSimulator, SnapshotRecord } from '@libs/simulators/okta/simulator-options.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { TestApp } from './test-app.js';

/** Every scope a restore of any Okta type asks for: what an org's integration is granted in restore specs. */
export const RESTORE_SCOPES = oktaRestoreScopes(OKTA_RESOURCE_TYPES);

type Json = Record<string, unknown>;

/** GET /api/restore/[restoreId]'s body. */
export interface RestoreView {
  restore: Json & { status: string; summary: Record<string, Json>; totals: Record<string, number> };
  items: Array<Json & { resourceType: string; resourceId: string; action: string; outcome: string }>;
  items_total: number;
}

/** Polls GET /api/restore/[restoreId] until the restore is over; returns its view with every item (all pages). */
export async function waitForRestore(
  ctx: TestApp,
  token: string,
  restoreId: string,
  timeoutMs = 120_000,
): Promise<RestoreView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await ctx.http
      .get(`/api/restore/${restoreId}`)
      .query({ limit: 1000 })
      .set('Authorization', `Bearer ${token}`);
    if (response.status !== 200) throw new Error(`restore answered ${response.status}: ${response.text}`);
    if (!['pending', 'running'].includes(response.body.restore.status)) {
      const view = response.body as RestoreView;
      // Items come in pages of at most 1000 (MAX_RESTORE_PAGE): a large restore's are read page by page.
      while (view.items.length < view.items_total) {
        const page = await ctx.http
          .get(`/api/restore/${restoreId}`)
          .query({ limit: 1000, offset: view.items.length })
          .set('Authorization', `Bearer ${token}`);
        if (page.status !== 200) throw new Error(`restore answered ${page.status}: ${page.text}`);
        const items = (page.body as RestoreView).items;
        if (items.length === 0) break;
        view.items.push(...items);
      }
      return view;
    }
    if (Date.now() > deadline) throw new Error(`restore ${restoreId} still ${response.body.restore.status}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Starts a restore through POST /api/restore (expects 202) and waits until it is over. */
export async function runRestore(ctx: TestApp, token: string, body: Json): Promise<RestoreView> {
  const started = await ctx.http.post('/api/restore').set('Authorization', `Bearer ${token}`).send(body);
  if (started.status !== 202) throw new Error(`restore answered ${started.status}: ${started.text}`);
  return waitForRestore(ctx, token, started.body.restoreId as string);
}

/** A user's login, from a simulator snapshot record. */
export const loginOf = (user: SnapshotRecord): string => (user.data.profile as { login: string }).login;

/**
 * Deletes the first `count` users of the org that are not DEPROVISIONED as an admin does
 * (deactivate, then delete, both `DELETE /api/v1/users/{id}`), leaving the org's admins alone,
 * `concurrency` at a time.
 * @returns the deleted users as they were
 */
export async function deleteUsers(
  sim: RunningSimulator,
  count: number,
  concurrency = 1,
): Promise<SnapshotRecord[]> {
  const state = sim.snapshot();
  const admins = new Set(state.admin_role_assignment.map((assignment) => assignment.id.split(':')[0]));
  const doomed = state.user
    .filter((user) => user.data.status !== 'DEPROVISIONED' && !admins.has(user.id))
    .slice(0, count);
  const okta = new SimulatorClient(sim);
  try {
    await pMap(
      doomed,
      async (user) => {
        for (let i = 0; i < 2; i++) await okta.call('DELETE', `/api/v1/users/${user.id}`);
      },
      { concurrency },
    );
  } finally {
    await okta.close();
  }
  return doomed;
}

/** How many users of the org have each of `users`' logins, by login (1 each after a faithful restore). */
export function loginCounts(sim: RunningSimulator, users: readonly SnapshotRecord[]): Record<string, number> {
  const logins = sim.snapshot().user.map(loginOf);
  return Object.fromEntries(
    users.map((user) => [loginOf(user), logins.filter((login) => login === loginOf(user)).length]),
  );
}
