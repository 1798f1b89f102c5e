import type { Json } from '@libs/simulators/okta/store/entry.js';
import type { OrgState } from '@libs/simulators/okta/store/org-state.js';

/**
 * OIN catalog apps as Okta lists them among an APP_ADMIN's targets (CatalogApplication), copied
 * from recorded traffic (TestAccResourceOktaAdminRoleTargets_crud: `facebook`, `oidc_client`),
 * logo links left out. The simulator has no catalog of its own beyond these.
 */
const RECORDED: Readonly<Record<string, Json>> = {
  facebook: {
    name: 'facebook',
    displayName: 'Facebook',
    description: 'Giving people the power to share and make the world more open and connected.',
    status: 'ACTIVE',
    lastUpdated: '2021-03-18T17:37:56.000Z',
    category: 'SOCIAL',
    verificationStatus: 'OKTA_VERIFIED',
    website: 'https://www.facebook.com/',
    signOnModes: ['BROWSER_PLUGIN'],
  },
  oidc_client: {
    name: 'oidc_client',
    displayName: 'OpenID Connect Client',
    description: 'OpenID Connect Client',
    status: 'ACTIVE',
    lastUpdated: '2017-06-20T02:25:02.000Z',
    category: 'OAUTH2',
    verificationStatus: 'OKTA_VERIFIED',
    website: 'http://openid.net/specs/openid-connect-core-1_0.html',
    signOnModes: ['OPENID_CONNECT'],
    features: ['DEFAULT_PUSH_STATUS_TO_PUSH'],
  },
};

/**
 * The catalog app named `appName` (an app's `name`, its OIN key) as a role target lists it, with
 * its `_links.self` (`/api/v1/catalog/apps/{name}`, as recorded), or undefined when neither the
 * recorded catalog nor an app of the org has that name.
 */
export function catalogApp(state: OrgState, appName: string, base: string): Json | undefined {
  const self = { self: { href: `${base}/api/v1/catalog/apps/${appName}` } };
  const recorded = RECORDED[appName];
  if (recorded) return { ...recorded, _links: self };
  for (const app of state.apps.valuesInOrder())
    if (app.data.name === appName)
      return {
        name: appName,
        displayName: appName,
        status: 'ACTIVE',
        signOnModes: typeof app.data.signOnMode === 'string' ? [app.data.signOnMode] : [],
        _links: self,
      };
  return undefined;
}
