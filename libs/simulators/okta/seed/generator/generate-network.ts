import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import type { GeneratorContext } from './generator-context.js';

/** Zone ids later steps reference from policy rules. */
export interface Zones {
  officeZoneId: string;
  blockedZoneId: string;
}

function cidr(ctx: GeneratorContext): { type: string; value: string } {
  const { prng } = ctx;
  return { type: 'CIDR', value: `${prng.int(11, 223)}.${prng.int(0, 255)}.${prng.int(0, 255)}.0/24` };
}

/**
 * The zones every Okta org has (LegacyIpZone, BlockedIpZone: system IP zones) plus an office IP
 * zone and a dynamic blocklist zone; and a few trusted origins (CORS and redirect).
 */
export function generateNetwork(ctx: GeneratorContext): Zones {
  const { state, prng } = ctx;
  const zone = (fields: Json): string => {
    const { created, lastUpdated } = ctx.timestamps();
    const id = ctx.id(ID_PREFIX.networkZone);
    state.networkZones.set(id, { data: { type: 'IP', id, ...fields, created, lastUpdated } });
    return id;
  };
  zone({ name: 'LegacyIpZone', status: 'ACTIVE', usage: 'POLICY', system: true, gateways: [], proxies: [] });
  zone({
    name: 'BlockedIpZone',
    status: 'ACTIVE',
    usage: 'BLOCKLIST',
    system: true,
    gateways: [],
    proxies: [],
  });
  const officeZoneId = zone({
    name: 'Office Networks',
    status: 'ACTIVE',
    usage: 'POLICY',
    system: false,
    gateways: Array.from({ length: prng.int(2, 4) }, () => cidr(ctx)),
    proxies: [],
  });
  const blockedZoneId = zone({
    type: 'DYNAMIC',
    name: 'Blocked Countries',
    status: 'ACTIVE',
    usage: 'BLOCKLIST',
    system: false,
    locations: [{ country: 'KP' }, { country: 'IR' }],
    proxyType: 'Any',
    asns: [],
  });
  zone({
    name: 'Retired VPN',
    status: 'INACTIVE',
    usage: 'POLICY',
    system: false,
    gateways: [cidr(ctx)],
    proxies: [],
  });

  for (const [name, origin, scopes] of [
    ['Intranet', `https://intranet.${ctx.pools.companyDomain}`, ['CORS', 'REDIRECT']],
    ['Support portal', `https://support.${ctx.pools.companyDomain}`, ['CORS']],
    ['Developer sandbox', 'https://localhost:3000', ['REDIRECT']],
  ] as const) {
    const { created, lastUpdated } = ctx.timestamps();
    const id = ctx.id(ID_PREFIX.trustedOrigin);
    state.trustedOrigins.set(id, {
      data: {
        id,
        name,
        origin,
        scopes: scopes.map((type) => ({ type })),
        status: name === 'Developer sandbox' ? 'INACTIVE' : 'ACTIVE',
        created,
        createdBy: state.adminUserId,
        lastUpdated,
        lastUpdatedBy: state.adminUserId,
      },
    });
  }
  return { officeZoneId, blockedZoneId };
}
