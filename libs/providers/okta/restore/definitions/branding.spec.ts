import { describe, expect, it } from '@jest/globals';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { childrenOf as liveChildrenOf, pairedLive } from '@libs/simulators/okta/testing/live-pairs.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

const THEME = {
  primaryColorHex: '#0a7d36',
  primaryColorContrastHex: '#ffffff',
  secondaryColorHex: '#f4f4f4',
  secondaryColorContrastHex: '#000000',
  signInPageTouchPointVariant: 'OKTA_DEFAULT',
  endUserDashboardTouchPointVariant: 'WHITE_LOGO_BACKGROUND',
  errorPageTouchPointVariant: 'OKTA_DEFAULT',
  emailTemplateTouchPointVariant: 'OKTA_DEFAULT',
  loadingPageTouchPointVariant: 'OKTA_DEFAULT',
};

/** Restore writes of the branding types against the simulator, one definition at a time. */
describe('branding restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const childrenOf = (type: OktaResourceType, parentId: string) => liveChildrenOf(org, type, parentId);
  const paired = (backup: ResourceRecord) => pairedLive(org, sut, backup);
  const byDefault = (isDefault: boolean) => (record: ResourceRecord) => record.data.isDefault === isDefault;
  const customizationPath = (id: string) => {
    const [brandId, template, customizationId] = id.split(':');
    return `/api/v1/brands/${brandId}/templates/email/${template}/customizations/${customizationId}`;
  };

  useRestoreTestOrg({ users: 20, groups: 5, apps: 2, seed: 23 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted brand, then puts back its theme, email settings and content, pages and domain', async () => {
    const partner = (await org.find('brand', byDefault(false)))!;
    const [theme] = await childrenOf('brand_theme', partner.id);
    await org.call('PUT', `/api/v1/brands/${partner.id}/themes/${theme.data.id}`, THEME);
    await org.call('PUT', `/api/v1/brands/${partner.id}/templates/email/UserActivation/settings`, {
      recipients: 'ADMINS_ONLY',
    });
    const backup: ResourceRecord[] = [(await org.find('brand', (b) => b.id === partner.id))!];
    for (const type of ['brand_theme', 'email_template', 'email_customization', 'brand_page'] as const)
      backup.push(...(await childrenOf(type, partner.id)));
    const domain = (await org.find('custom_domain', (d) => d.data.brandId === partner.id))!;
    backup.push(domain);
    expect(backup.map((record) => record.type)).toEqual(
      expect.arrayContaining(['brand_theme', 'email_customization', 'brand_page', 'custom_domain']),
    );
    await org.call('DELETE', `/api/v1/brands/${partner.id}`, undefined, 409);
    await org.call('DELETE', `/api/v1/domains/${domain.id}`);
    await org.call('DELETE', `/api/v1/brands/${partner.id}`);

    const created = await sut.apply({ action: 'create', record: backup[0], with: [] });
    const ids = new Map([[partner.id, created.id]]);
    for (const record of backup.slice(1).map((r) => sut.rewrite(r, ids))) {
      const live = await paired(record);
      if (live) {
        if (sut.fingerprint(live) !== sut.fingerprint(record))
          await sut.apply({ action: 'update', record, live: sut.live(live) });
      } else await sut.apply({ action: 'create', record, with: [] });
    }

    expect(created.id).not.toBe(partner.id);
    for (const record of backup.map((r) => sut.rewrite(r, ids))) {
      const live = await paired(record);
      expect([record.type, live && sut.fingerprint(live)]).toEqual([record.type, sut.fingerprint(record)]);
    }
    const [restoredTheme] = await childrenOf('brand_theme', created.id);
    expect(restoredTheme.data).toMatchObject(THEME);
    const restoredDomain = (await org.find('custom_domain', (d) => d.data.domain === domain.data.domain))!;
    expect(restoredDomain.data).toMatchObject({ brandId: created.id, validationStatus: 'NOT_STARTED' });
  });

  it("changes Okta's default brand back, and never creates or deletes it", async () => {
    const main = (await org.find('brand', byDefault(true)))!;
    await org.call('PUT', `/api/v1/brands/${main.id}`, {
      ...main.data,
      name: 'Renamed',
      removePoweredByOkta: true,
      customPrivacyPolicyUrl: 'https://example.com/privacy',
      agreeToCustomPrivacyPolicy: true,
    });
    const changed = (await org.find('brand', (b) => b.id === main.id))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(main));

    await sut.apply({ action: 'update', record: main, live: sut.live(changed) });

    const restored = (await org.find('brand', (b) => b.id === main.id))!;
    expect(restored.data).toMatchObject({ name: main.data.name, removePoweredByOkta: false });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(main));
    expect(sut.managedBecause(main)).toMatch(/default brand/);
    expect(sut.managedBecause((await org.find('brand', byDefault(false)))!)).toBeNull();
  });

  it('only changes themes and email templates, which Okta creates and deletes with their brand', async () => {
    const [theme] = await org.records('brand_theme');
    const template = (await org.find('email_template', (t) => t.name === 'ForgotPassword'))!;

    expect(sut.managedBecause(theme)).toMatch(/with its brand/);
    expect(sut.managedBecause(template)).toMatch(/recipients/);
    for (const type of ['brand_theme', 'email_template'])
      expect(sut.support(type)).toMatchObject({ create: false, update: true, delete: false });
    expect(sut.support('brand_theme').notes.join(' ')).toMatch(/logos/);
  });

  it('moves the default customization back, writing the backed-up default last', async () => {
    const template = (await org.records('email_customization')).filter((c) =>
      c.id.includes(':ForgotPassword:'),
    );
    const [english, french] = [template.find(byDefault(true))!, template.find(byDefault(false))!];
    await org.call('PUT', customizationPath(french.id), { ...french.data, isDefault: true });
    await org.call('PUT', customizationPath(english.id), { ...english.data, subject: 'Changed' });
    const writes = [english, french].sort(sut.sequence('email_customization')!);
    expect(writes.map((record) => record.data.language)).toEqual(['fr', 'en']);

    for (const record of writes)
      await sut.apply({ action: 'update', record, live: sut.live((await paired(record))!) });

    for (const record of writes)
      expect(sut.fingerprint((await paired(record))!)).toBe(sut.fingerprint(record));
  });

  it('re-creates deleted customizations with the backed-up default, whichever Okta made default first', async () => {
    const template = (await org.records('email_customization')).filter((c) =>
      c.id.includes(':ForgotPassword:'),
    );
    const [brandId] = template[0].id.split(':');
    await org.call('DELETE', `/api/v1/brands/${brandId}/templates/email/ForgotPassword/customizations`);

    for (const record of [...template].sort(sut.sequence('email_customization')!))
      await sut.apply({ action: 'create', record, with: [] });

    const live = (await org.records('email_customization')).filter((c) => c.id.includes(':ForgotPassword:'));
    expect(live.map((c) => [c.data.language, c.data.isDefault]).sort()).toEqual([
      ['en', true],
      ['fr', false],
    ]);
    for (const record of template)
      expect(sut.fingerprint((await paired(record))!)).toBe(sut.fingerprint(record));
  });

  it('prunes customizations: the default only once it is the last of its template', async () => {
    const main = (await org.find('brand', byDefault(true)))!;
    const path = `/api/v1/brands/${main.id}/templates/email`;
    const german = await org.call('POST', `${path}/ForgotPassword/customizations`, {
      language: 'de',
      subject: 'Passwort',
      body: 'Hallo ${resetPasswordLink}',
    });
    const lonely = await org.call('POST', `${path}/PasswordChanged/customizations`, {
      language: 'en',
      subject: 'Changed',
      body: 'Your password changed',
    });
    const english = (await org.find(
      'email_customization',
      (c) => c.id.includes(':ForgotPassword:') && c.data.isDefault === true,
    ))!;
    const live = async (id: string) =>
      sut.live((await org.find('email_customization', (c) => c.id.endsWith(id)))!);
    const defaultEnglish = await live(english.id);
    const liveGerman = await live(String(german.id));
    const liveLonely = await live(String(lonely.id));

    await sut.apply({ action: 'delete', type: 'email_customization', live: liveGerman });
    await sut.apply({ action: 'delete', type: 'email_customization', live: liveLonely });
    await expect(
      sut.apply({ action: 'delete', type: 'email_customization', live: defaultEnglish }),
    ).rejects.toThrow(ProviderRequestError);

    const left = (await org.records('email_customization')).map((c) => c.id);
    expect(left).toContain(english.id);
    expect(left.some((id) => id.endsWith(String(german.id)) || id.endsWith(String(lonely.id)))).toBe(false);
  });

  it('sets back email template recipients', async () => {
    const template = (await org.find('email_template', (t) => t.name === 'NewSignOnNotification'))!;
    const [brandId] = template.id.split(':');
    await org.call('PUT', `/api/v1/brands/${brandId}/templates/email/NewSignOnNotification/settings`, {
      recipients: 'ALL_USERS',
    });
    const changed = (await org.find('email_template', (t) => t.id === template.id))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(template));

    await sut.apply({ action: 'update', record: template, live: sut.live(changed) });

    const restored = (await org.find('email_template', (t) => t.id === template.id))!;
    expect(restored.data._embedded).toMatchObject({ settings: { recipients: 'NO_USERS' } });
  });

  it('puts back a reset sign-in page and a changed sign-out setting; a prune resets both', async () => {
    const signIn = (await org.find('brand_page', (p) => p.id.endsWith(':sign-in')))!;
    const [brandId] = signIn.id.split(':');
    const signOut = (await org.find('brand_page', (p) => p.id === `${brandId}:sign-out`))!;
    await org.call('DELETE', `/api/v1/brands/${brandId}/pages/sign-in/customized`);
    await org.call('PUT', `/api/v1/brands/${brandId}/pages/sign-out/customized`, {
      type: 'EXTERNALLY_HOSTED',
      url: 'https://example.com/bye',
    });
    const changedSignOut = (await org.find('brand_page', (p) => p.id === signOut.id))!;

    await sut.apply({ action: 'create', record: signIn, with: [] });
    await sut.apply({ action: 'update', record: signOut, live: sut.live(changedSignOut) });

    expect(sut.fingerprint((await org.find('brand_page', (p) => p.id === signIn.id))!)).toBe(
      sut.fingerprint(signIn),
    );
    expect((await org.find('brand_page', (p) => p.id === signOut.id))!.data).toEqual({
      type: 'OKTA_DEFAULT',
    });

    await org.call('PUT', `/api/v1/brands/${brandId}/pages/sign-out/customized`, {
      type: 'EXTERNALLY_HOSTED',
      url: 'https://example.com/bye',
    });
    const prunedSignOut = (await org.find('brand_page', (p) => p.id === signOut.id))!;
    await sut.apply({ action: 'delete', type: 'brand_page', live: sut.live(signIn) });
    await sut.apply({ action: 'delete', type: 'brand_page', live: sut.live(prunedSignOut) });

    await org.call('GET', `/api/v1/brands/${brandId}/pages/sign-in/customized`, undefined, 404);
    expect((await org.find('brand_page', (p) => p.id === signOut.id))!.data).toEqual({
      type: 'OKTA_DEFAULT',
    });
  });

  it('moves a custom domain back to its brand, and prunes one added since the backup', async () => {
    const domain = (await org.find('custom_domain', () => true))!;
    const main = (await org.find('brand', byDefault(true)))!;
    await org.call('PUT', `/api/v1/domains/${domain.id}`, { brandId: main.id });
    const moved = (await org.find('custom_domain', (d) => d.id === domain.id))!;
    expect(sut.fingerprint(moved)).not.toBe(sut.fingerprint(domain));

    await sut.apply({ action: 'update', record: domain, live: sut.live(moved) });

    const restored = (await org.find('custom_domain', (d) => d.id === domain.id))!;
    expect(restored.data.brandId).toBe(domain.data.brandId);
    const added = await org.call('POST', '/api/v1/domains', {
      domain: 'Login.Added.Example.com',
      certificateSourceType: 'MANUAL',
    });
    const liveAdded = (await org.find('custom_domain', (d) => d.id === added.id))!;
    expect(sut.naturalKey(liveAdded)).toBe('login.added.example.com');
    await sut.apply({ action: 'delete', type: 'custom_domain', live: sut.live(liveAdded) });
    expect(await org.find('custom_domain', (d) => d.id === added.id)).toBeUndefined();
  });

  it('re-creates a deleted custom domain with a runbook note naming its new DNS records', async () => {
    const domain = (await org.find('custom_domain', () => true))!;
    await org.call('DELETE', `/api/v1/domains/${domain.id}`);

    const result = await sut.apply({ action: 'create', record: domain, with: [] });

    const restored = (await org.find('custom_domain', (d) => d.id === result.id))!;
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(domain));
    const txt = (restored.data.dnsRecords as Array<{ recordType: string; values: string[] }>).find(
      (record) => record.recordType === 'TXT',
    )!;
    expect(result.notes.join(' ')).toContain(txt.values[0]);
    expect(sut.support('custom_domain').notes.join(' ')).toMatch(/verify/);
  });

  it('prunes a brand added since the backup', async () => {
    const added = await org.call('POST', '/api/v1/brands', { name: 'Added since' });
    const live = (await org.find('brand', (b) => b.id === added.id))!;
    expect(sut.naturalKey(live)).toBe('Added since');

    await sut.apply({ action: 'delete', type: 'brand', live: sut.live(live) });

    expect(await org.find('brand', (b) => b.id === added.id)).toBeUndefined();
  });
});
