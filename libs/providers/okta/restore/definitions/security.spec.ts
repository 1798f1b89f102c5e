import { describe, expect, it } from '@jest/globals';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import { useRestoreTestOrg, type RestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

/** Restore writes of network zones, trusted origins, authenticators and behaviors against the simulator. */
describe('security restore definitions (simulator over HTTPS)', () => {
  let org: RestoreTestOrg;
  let sut: ProviderRestorer;
  const live = (record: ResourceRecord): LiveResource => sut.live(record);
  const named = (type: OktaResourceType, name: string) => org.find(type, (record) => record.name === name);
  const match = async (backedUp: ResourceRecord) =>
    pairedRecord(await org.records(backedUp.type as OktaResourceType), sut, backedUp);

  useRestoreTestOrg({ users: 10, groups: 4, apps: 2, seed: 31 }, (started) => {
    org = started;
    sut = org.restorer();
  });

  it('re-creates deleted network zones with their status, ACTIVE and INACTIVE', async () => {
    const office = (await named('network_zone', 'Office Networks'))!;
    const retired = (await named('network_zone', 'Retired VPN'))!;
    await org.call('POST', `/api/v1/zones/${office.id}/lifecycle/deactivate`);
    await org.call('DELETE', `/api/v1/zones/${office.id}`);
    await org.call('DELETE', `/api/v1/zones/${retired.id}`);

    for (const zone of [office, retired]) {
      const created = await sut.apply({ action: 'create', record: zone, with: [] });
      const restored = (await match(zone))!;
      expect(restored.id).toBe(created.id);
      expect(restored.id).not.toBe(zone.id);
      expect(restored.data.status).toBe(zone.data.status);
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(zone));
    }
  });

  it('puts back a changed and deactivated zone, and deletes one on prune by deactivating it first', async () => {
    const zone = (await named('network_zone', 'Blocked Countries'))!;
    await org.call('PUT', `/api/v1/zones/${zone.id}`, { ...zone.data, locations: [{ country: 'FR' }] });
    await org.call('POST', `/api/v1/zones/${zone.id}/lifecycle/deactivate`);
    const changed = (await match(zone))!;

    await sut.apply({ action: 'update', record: zone, live: live(changed) });

    const restored = (await match(zone))!;
    expect(restored.data).toMatchObject({ status: 'ACTIVE', locations: zone.data.locations });
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(zone));

    await sut.apply({ action: 'delete', type: 'network_zone', live: live(restored) });
    expect(await match(zone)).toBeUndefined();
  });

  it('leaves the system zones to Okta', async () => {
    const legacy = (await named('network_zone', 'LegacyIpZone'))!;
    const office = (await named('network_zone', 'Office Networks'))!;
    expect(sut.managedBecause(legacy)).toMatch(/system network zones/);
    expect(sut.managedBecause(office)).toBeNull();
  });

  it('re-creates a deleted INACTIVE trusted origin INACTIVE, and puts back a changed one ACTIVE, matched by origin', async () => {
    const sandbox = (await named('trusted_origin', 'Developer sandbox'))!;
    await org.call('DELETE', `/api/v1/trustedOrigins/${sandbox.id}`);
    const created = await sut.apply({ action: 'create', record: sandbox, with: [] });
    const restored = (await match(sandbox))!;
    expect([restored.id, restored.data.status]).toEqual([created.id, 'INACTIVE']);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(sandbox));

    const intranet = (await named('trusted_origin', 'Intranet'))!;
    await org.call('PUT', `/api/v1/trustedOrigins/${intranet.id}`, {
      ...intranet.data,
      name: 'Old intranet',
      scopes: [{ type: 'CORS' }],
    });
    await org.call('POST', `/api/v1/trustedOrigins/${intranet.id}/lifecycle/deactivate`);
    const changed = (await match(intranet))!;
    expect(changed.id).toBe(intranet.id);

    await sut.apply({ action: 'update', record: intranet, live: live(changed) });

    const back = (await match(intranet))!;
    expect(back.data).toMatchObject({ name: 'Intranet', status: 'ACTIVE', scopes: intranet.data.scopes });
    expect(sut.fingerprint(back)).toBe(sut.fingerprint(intranet));
  });

  it('deletes a trusted origin on prune', async () => {
    const portal = (await named('trusted_origin', 'Support portal'))!;

    await sut.apply({ action: 'delete', type: 'trusted_origin', live: live(portal) });

    expect(await match(portal)).toBeUndefined();
  });

  it('puts back changed authenticator settings and status', async () => {
    const email = (await org.find('authenticator', (a) => a.data.key === 'okta_email'))!;
    const webauthn = (await org.find('authenticator', (a) => a.data.key === 'webauthn'))!;
    await org.call('PUT', `/api/v1/authenticators/${email.id}`, {
      ...email.data,
      settings: { allowedFor: 'recovery', tokenLifetimeInMinutes: 5 },
    });
    await org.call('POST', `/api/v1/authenticators/${webauthn.id}/lifecycle/activate`);

    for (const authenticator of [email, webauthn]) {
      const changed = (await match(authenticator))!;
      expect(sut.fingerprint(changed)).not.toBe(sut.fingerprint(authenticator));
      await sut.apply({ action: 'update', record: authenticator, live: live(changed) });
      const restored = (await match(authenticator))!;
      expect(restored.data.status).toBe(authenticator.data.status);
      expect(sut.fingerprint(restored)).toBe(sut.fingerprint(authenticator));
    }
  });

  it('creates an authenticator the org lacks (one a backup of another org holds) INACTIVE first, then activates it', async () => {
    const okta = (await org.find('authenticator', (a) => a.data.key === 'phone_number'))!;
    const yubikey: ResourceRecord = {
      ...okta,
      id: 'autYubikeyOtherOrg01',
      name: 'YubiKey',
      data: {
        ...okta.data,
        id: 'autYubikeyOtherOrg01',
        key: 'yubikey_token',
        name: 'YubiKey',
        type: 'security_key',
      },
    };
    const activations = () =>
      org.sim.requestLog().byEndpoint['POST /api/v1/authenticators/{authenticatorId}/lifecycle/activate'] ??
      0;
    const before = activations();

    const created = await sut.apply({ action: 'create', record: yubikey, with: [] });

    const restored = (await match(yubikey))!;
    expect([restored.id, restored.data.status]).toEqual([created.id, 'ACTIVE']);
    expect(activations()).toBe(before + 1);
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(yubikey));
  });

  it('knows Okta deletes no authenticator and creates the password and email ones itself', async () => {
    const password = (await org.find('authenticator', (a) => a.data.key === 'okta_password'))!;
    const verify = (await org.find('authenticator', (a) => a.data.key === 'okta_verify'))!;
    expect(sut.support('authenticator')).toMatchObject({ create: true, update: true, delete: false });
    expect(sut.support('authenticator').notes.join(' ')).toMatch(
      /no operation that deletes an authenticator/,
    );
    expect(sut.managedBecause(password)).toMatch(/password and email/);
    expect(sut.managedBecause(verify)).toBeNull();
  });

  it('re-creates a deleted INACTIVE behavior INACTIVE, puts back a changed one and deletes one on prune', async () => {
    const velocity = (await named('behavior', 'Velocity'))!;
    await org.call('DELETE', `/api/v1/behaviors/${velocity.id}`);
    await sut.apply({ action: 'create', record: velocity, with: [] });
    const restored = (await match(velocity))!;
    expect(restored.data.status).toBe('INACTIVE');
    expect(sut.fingerprint(restored)).toBe(sut.fingerprint(velocity));

    const device = (await named('behavior', 'New Device'))!;
    await org.call('PUT', `/api/v1/behaviors/${device.id}`, {
      ...device.data,
      settings: { maxEventsUsedForEvaluation: 5 },
    });
    await sut.apply({ action: 'update', record: device, live: live((await match(device))!) });
    expect(sut.fingerprint((await match(device))!)).toBe(sut.fingerprint(device));

    await sut.apply({ action: 'delete', type: 'behavior', live: live(device) });
    expect(await match(device)).toBeUndefined();
  });
});
