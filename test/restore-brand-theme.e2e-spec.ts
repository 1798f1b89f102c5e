import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { createConnection, runBackup } from './support/backup-helpers.js';
import { startTestOrg, type TestOrg } from './support/okta-org.js';
import { RESTORE_SCOPES, runRestore } from './support/restore-helpers.js';
import { startTestApp, type TestApp, type TestClient } from './support/test-app.js';

type Json = Record<string, unknown>;

/** A theme as Okta's Themes API documents it (replaceBrandTheme, UpdateThemeRequest). */
const THEME = {
  primaryColorHex: '#1662dd',
  primaryColorContrastHex: '#ffffff',
  secondaryColorHex: '#ebebed',
  secondaryColorContrastHex: '#000000',
  signInPageTouchPointVariant: 'BACKGROUND_SECONDARY_COLOR',
  endUserDashboardTouchPointVariant: 'FULL_THEME',
  errorPageTouchPointVariant: 'BACKGROUND_SECONDARY_COLOR',
  emailTemplateTouchPointVariant: 'FULL_THEME',
  loadingPageTouchPointVariant: 'NONE',
};

/**
 * A deleted brand restored by type (`resourceTypes: ['brand']`): Okta gives a new brand its own
 * default theme (createBrand; "Themes": every brand has exactly one, replaced, never created),
 * so the restore puts the backed-up theme onto it. The fidelity round trip pairs a backed-up
 * theme equal to the new default with the new brand's by the restore's natural key (the brand).
 */
describe('restore of a deleted brand: its theme (HTTP, real PostgreSQL, simulator over HTTPS)', () => {
  let org: TestOrg;
  let okta: SimulatorClient;
  let ctx: TestApp;
  let admin: TestClient;
  let connectionId: string;

  const call = async (method: string, path: string, json?: unknown): Promise<Json> => {
    const response = await okta.call(method, path, json === undefined ? {} : { json });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${response.text}`);
    return (response.body ?? {}) as Json;
  };
  const themeOf = async (brandId: string) =>
    ((await call('GET', `/api/v1/brands/${brandId}/themes`)) as unknown as Json[])[0];
  const brandNamed = async (name: string) =>
    ((await call('GET', '/api/v1/brands')) as unknown as Json[]).find((brand) => brand.name === name);

  beforeAll(async () => {
    org = await startTestOrg({ users: 5, groups: 2, apps: 1, seed: 5 }, RESTORE_SCOPES);
    okta = new SimulatorClient(org.sim);
    ctx = await startTestApp(org.env);
    admin = await ctx.newClient({ role: 'admin' });
    connectionId = await createConnection(ctx, admin.token, { baseUrl: org.sim.baseUrl, ...org.integration });
  });
  afterAll(async () => {
    await ctx?.close();
    await okta?.close();
    await org?.sim.close();
  });

  /** Creates a brand (with THEME when `themed`), backs up, deletes it and restores the `brand` type. */
  async function roundTrip(name: string, themed: boolean) {
    const brand = await call('POST', '/api/v1/brands', { name });
    const theme = await themeOf(String(brand.id));
    if (themed) await call('PUT', `/api/v1/brands/${String(brand.id)}/themes/${String(theme.id)}`, THEME);
    const backup = await runBackup(ctx, admin.token, { connectionId });
    await call('DELETE', `/api/v1/brands/${String(brand.id)}`);
    const restored = await runRestore(ctx, admin.token, {
      backupId: backup.id,
      mode: 'selective',
      resourceTypes: ['brand'],
    });
    const recreated = (await brandNamed(name))!;
    return { theme, restored, recreated, live: await themeOf(String(recreated.id)) };
  }

  it('puts the backed-up theme onto the new brand', async () => {
    const { theme, restored, recreated, live } = await roundTrip('Restored partner brand', true);
    expect(restored.restore.status).toBe('completed');
    expect(live).toMatchObject(THEME);
    const item = restored.items.find((i) => i.resourceType === 'brand_theme');
    expect(item).toMatchObject({
      resourceId: expect.stringContaining(String(theme.id)),
      outcome: 'ok',
      newId: `${String(recreated.id)}:${String(live.id)}`,
    });
  });

  it("leaves a backed-up default theme as the new brand's own default: equal, nothing to write", async () => {
    const { theme, restored, live } = await roundTrip('Restored default-themed brand', false);
    expect(restored.restore.status).toBe('completed');
    const fields = Object.keys(THEME);
    const pick = (data: Json) => Object.fromEntries(fields.map((field) => [field, data[field]]));
    expect(pick(live)).toEqual(pick(theme));
    // Matched by its brand (the natural key), equal: no write, so no item names the live theme.
    expect(restored.items.filter((item) => item.resourceType === 'brand_theme')).toEqual([]);
  });
});
