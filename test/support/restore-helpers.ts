import { OKTA_RESOURCE_TYPES } from '@libs/providers/resource-types.js';
import { oktaRestoreScopes } from '@libs/providers/okta/okta-scopes.js';
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

/** Polls GET /api/restore/[restoreId] (every item) until the restore is over; returns its view. */
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
    if (!['pending', 'running'].includes(response.body.restore.status)) return response.body as RestoreView;
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
