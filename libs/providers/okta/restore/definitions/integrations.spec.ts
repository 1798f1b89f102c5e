import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

/** Restore writes of identity providers, event hooks and inline hooks against the simulator. */
describe('identity provider and hook restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const live = (record: ResourceRecord): LiveResource => sut.live(record);
  const named = (type: OktaResourceType, name: string) => org.find(type, (record) => record.name === name);
  const match = async (backedUp: ResourceRecord) =>
    pairedRecord(await org.records(backedUp.type as OktaResourceType), sut, backedUp);
  /** The client secret Okta holds for an IdP (Okta answers it in clear; backups drop it). */
  const clientSecret = async (idpId: string) => {
    const idp = await org.call('GET', `/api/v1/idps/${idpId}`);
    return ((idp.protocol as OktaObject).credentials as { client: OktaObject }).client.client_secret;
  };

  useRestoreTestOrg({ users: 10, groups: 4, apps: 2, seed: 51 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates a deleted OIDC identity provider with a placeholder client secret, and says so', async () => {
    const idp = (await named('identity_provider', 'Partner SSO'))!;
    const original = await clientSecret(idp.id);
    expect(JSON.stringify(idp.data)).not.toContain(String(original));
    await org.call('DELETE', `/api/v1/idps/${idp.id}`);

    const created = await sut.apply({ action: 'create', record: idp, with: [] });

    const restored = (await match(idp))!;
    expect(restored.id).toBe(created.id);
    expect(restored.data.status).toBe('ACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(idp));
    const placeholder = await clientSecret(created.id);
    expect(placeholder).toEqual(expect.stringMatching(/^[\w-]{43}$/));
    expect(placeholder).not.toBe(original);
    expect(created.notes.join(' ')).toMatch(/placeholder client secret/);
  });

  it('re-creates a SAML identity provider with its entity id and signing key, and says what the provider must be given', async () => {
    const idp = (await named('identity_provider', 'Corporate ADFS'))!;
    await org.call('DELETE', `/api/v1/idps/${idp.id}`);

    const created = await sut.apply({ action: 'create', record: idp, with: [] });

    const restored = (await match(idp))!;
    const credentials = (restored.data.protocol as OktaObject).credentials as OktaObject;
    const before = (idp.data.protocol as OktaObject).credentials as OktaObject;
    expect(credentials.signing).toEqual(before.signing);
    expect((credentials.trust as OktaObject).audience).toBe((before.trust as OktaObject).audience);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(idp));
    expect(created.notes.join(' ')).toMatch(/SAML/);
    expect(created.notes.join(' ')).not.toMatch(/client secret/);
  });

  it('puts back a changed and deactivated identity provider, keeping the client secret Okta holds', async () => {
    const idp = (await named('identity_provider', 'Google Workspace'))!;
    const secret = await clientSecret(idp.id);
    const { _links: _ignored, ...data } = await org.call('GET', `/api/v1/idps/${idp.id}`);
    await org.call('PUT', `/api/v1/idps/${idp.id}`, {
      ...data,
      name: 'Google (old)',
      policy: { ...(idp.data.policy as OktaObject), maxClockSkew: 120 },
    });
    await org.call('POST', `/api/v1/idps/${idp.id}/lifecycle/deactivate`);
    const changed = (await match(idp))!;

    await sut.apply({ action: 'update', record: idp, live: live(changed) });

    const restored = (await match(idp))!;
    expect(restored.data).toMatchObject({ name: 'Google Workspace', status: 'ACTIVE' });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(idp));
    expect(await clientSecret(idp.id)).toBe(secret);
  });

  it('deletes an identity provider on prune, its profile mapping with it', async () => {
    const idp = (await named('identity_provider', 'Google Workspace'))!;

    await sut.apply({ action: 'delete', type: 'identity_provider', live: live(idp) });

    expect(await match(idp)).toBeUndefined();
    const mappings = await org.records('profile_mapping');
    expect(mappings.some((m) => (m.data.source as OktaObject).id === idp.id)).toBe(false);
  });

  it('re-creates deleted event hooks with their status; Okta leaves them UNVERIFIED, and the result says to verify them', async () => {
    const feed = (await named('event_hook', 'SIEM lifecycle feed'))!;
    const old = (await named('event_hook', 'Old HR sync'))!;
    expect(feed.data.verificationStatus).toBe('VERIFIED');
    await org.call('POST', `/api/v1/eventHooks/${feed.id}/lifecycle/deactivate`);
    for (const hook of [feed, old]) await org.call('DELETE', `/api/v1/eventHooks/${hook.id}`);

    for (const hook of [feed, old]) {
      const created = await sut.apply({ action: 'create', record: hook, with: [] });
      const restored = (await match(hook))!;
      expect(restored.data).toMatchObject({ status: hook.data.status, verificationStatus: 'UNVERIFIED' });
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(hook));
      expect(created.notes.join(' ')).toMatch(/verify it/);
      expect(created.notes.join(' ')).toMatch(/secrets/);
    }
  });

  it('puts back a changed event hook, headers added since cleared, and deletes an ACTIVE one by deactivating it first', async () => {
    const hook = (await named('event_hook', 'SIEM lifecycle feed'))!;
    const channel = hook.data.channel as OktaObject;
    await org.call('PUT', `/api/v1/eventHooks/${hook.id}`, {
      ...hook.data,
      events: { type: 'EVENT_TYPE', items: ['user.lifecycle.create'] },
      channel: {
        ...channel,
        config: { ...(channel.config as OktaObject), headers: [{ key: 'X-Env', value: 'test' }] },
      },
    });
    const changed = (await match(hook))!;
    expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(hook));

    await sut.apply({ action: 'update', record: hook, live: live(changed) });

    const restored = (await match(hook))!;
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(hook));

    await sut.apply({ action: 'delete', type: 'event_hook', live: live(restored) });
    expect(await match(hook)).toBeUndefined();
  });

  it('re-creates a deleted INACTIVE inline hook INACTIVE', async () => {
    const hook = (await named('inline_hook', 'Registration screening'))!;
    await org.call('DELETE', `/api/v1/inlineHooks/${hook.id}`);

    const created = await sut.apply({ action: 'create', record: hook, with: [] });

    const restored = (await match(hook))!;
    expect([restored.id, restored.data.status]).toEqual([created.id, 'INACTIVE']);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(hook));
    expect(created.notes.join(' ')).toMatch(/Hook secrets/);
  });

  it('puts back a changed inline hook with a partial update of what differs, and deletes one on prune', async () => {
    const hook = (await named('inline_hook', 'Token enrichment'))!;
    await org.call('POST', `/api/v1/inlineHooks/${hook.id}`, { name: 'Tokens', version: '1.0.1' });
    await org.call('POST', `/api/v1/inlineHooks/${hook.id}/lifecycle/deactivate`);
    const changed = (await match(hook))!;
    const replacements = () => org.sim.requestLog().byEndpoint['PUT /api/v1/inlineHooks/{inlineHookId}'] ?? 0;
    const before = replacements();

    await sut.apply({ action: 'update', record: hook, live: live(changed) });

    const restored = (await match(hook))!;
    expect(restored.data).toMatchObject({ name: 'Token enrichment', version: '1.0.0', status: 'ACTIVE' });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(hook));
    expect(replacements()).toBe(before);

    await sut.apply({ action: 'delete', type: 'inline_hook', live: live(restored) });
    expect(await match(hook)).toBeUndefined();
  });
});
