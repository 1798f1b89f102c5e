import { newAppUser } from '@libs/simulators/okta/resources/app-user.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import type { GeneratorContext } from './generator-context.js';
import type { People } from './generate-people.js';

/** SaaS apps an enterprise typically connects to Okta; more apps than these get team portals. */
const LABELS = [
  'Salesforce',
  'Slack',
  'Zoom',
  'GitHub Enterprise',
  'Jira Software',
  'Workday',
  'Box',
  'Google Workspace',
  'Microsoft 365',
  'ServiceNow',
  'Zendesk',
  'DocuSign',
  'Dropbox Business',
  'Tableau',
  'Confluence',
  'Datadog',
  'PagerDuty',
  'HubSpot',
  'Asana',
  'Figma',
  'Notion',
  'Snowflake',
  'Splunk Cloud',
];

const MODES = ['SAML_2_0', 'OPENID_CONNECT', 'BOOKMARK', 'AUTO_LOGIN', 'BASIC_AUTH'] as const;
type Mode = (typeof MODES)[number];

/**
 * Real orgs answer `null` for unset strings here (message, helpUrl, notes, redirect URLs); the
 * OpenAPI description types them as plain strings, so generated apps leave them out.
 */
const NOTIFICATIONS = { vpn: { network: { connection: 'DISABLED' } } };

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** Mode-specific fields, shaped like apps recorded from real orgs. */
function modeFields(ctx: GeneratorContext, mode: Mode, id: string, label: string): Json {
  const site = `https://${slug(label)}.example.com`;
  const kid = randomKid(ctx);
  const userNameTemplate = { template: '${source.login}', type: 'BUILT_IN' };
  const settings = (extra: Json) => ({
    notifications: NOTIFICATIONS,
    manualProvisioning: false,
    implicitAssignment: false,
    ...extra,
  });
  switch (mode) {
    case 'SAML_2_0':
      return {
        name: `${slug(ctx.pools.companyDomain)}_${slug(label)}_1`,
        credentials: { userNameTemplate, signing: { kid } },
        settings: settings({
          app: {},
          signOn: {
            defaultRelayState: '',
            ssoAcsUrl: `${site}/saml/acs`,
            idpIssuer: 'http://www.okta.com/${org.externalKey}',
            audience: `${site}/saml/metadata`,
            recipient: `${site}/saml/acs`,
            destination: `${site}/saml/acs`,
            subjectNameIdTemplate: '${user.userName}',
            subjectNameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
            responseSigned: true,
            assertionSigned: true,
            signatureAlgorithm: 'RSA_SHA256',
            digestAlgorithm: 'SHA256',
            honorForceAuthn: true,
            authnContextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport',
            requestCompressed: false,
            attributeStatements: [],
            inlineHooks: [],
            allowMultipleAcsEndpoints: false,
            acsEndpoints: [],
            samlSignedRequestEnabled: false,
            slo: { enabled: false },
          },
        }),
      };
    case 'OPENID_CONNECT':
      return {
        name: 'oidc_client',
        credentials: {
          userNameTemplate,
          signing: { kid },
          oauthClient: {
            autoKeyRotation: true,
            client_id: id,
            token_endpoint_auth_method: 'client_secret_basic',
            pkce_required: false,
          },
        },
        settings: settings({
          app: {},
          oauthClient: {
            client_uri: site,
            redirect_uris: [`${site}/oauth2/callback`],
            response_types: ['code'],
            grant_types: ['authorization_code', 'refresh_token'],
            application_type: 'web',
            consent_method: 'TRUSTED',
            issuer_mode: 'ORG_URL',
            idp_initiated_login: { mode: 'DISABLED', default_scope: [] },
            wildcard_redirect: 'DISABLED',
          },
        }),
      };
    case 'BOOKMARK':
      return {
        name: 'bookmark',
        credentials: { userNameTemplate, signing: {} },
        settings: settings({ app: { requestIntegration: false, url: site } }),
      };
    case 'AUTO_LOGIN':
      return {
        name: `${slug(ctx.pools.companyDomain)}_${slug(label)}_swa`,
        credentials: {
          scheme: 'EDIT_USERNAME_AND_PASSWORD',
          userNameTemplate,
          revealPassword: false,
          signing: {},
        },
        settings: settings({ app: {}, signOn: { redirectUrl: '', loginUrl: `${site}/login` } }),
      };
    case 'BASIC_AUTH':
      return {
        name: 'template_basic_auth',
        credentials: {
          scheme: 'EDIT_USERNAME_AND_PASSWORD',
          userNameTemplate,
          revealPassword: false,
          signing: {},
        },
        settings: settings({ app: { url: `${site}/login`, authURL: `${site}/auth` } }),
      };
  }
}

/** A key id as Okta prints them (43 base64url characters), drawn from the PRNG. */
function randomKid(ctx: GeneratorContext): string {
  const bytes = Buffer.alloc(32);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(ctx.prng.next() * 256);
  return bytes.toString('base64url');
}

/**
 * Apps cycling through the main sign-on modes, each assigned to a random 10-30% of the
 * assignable users (direct, scope USER) and to 1-3 groups. Every fifth app is INACTIVE.
 */
export function generateApps(ctx: GeneratorContext, count: number, people: People): string[] {
  const { state, prng } = ctx;
  const appIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const mode = MODES[i % MODES.length];
    const label =
      i < LABELS.length ? LABELS[i] : `${ctx.pools.teamNames[i % ctx.pools.teamNames.length]} Portal ${i}`;
    const id = ctx.id(ID_PREFIX.app);
    const { created, lastUpdated } = ctx.timestamps();
    const { name, ...fields } = modeFields(ctx, mode, id, label);
    const data: Json = {
      id,
      name,
      label,
      status: i % 5 === 4 ? 'INACTIVE' : 'ACTIVE',
      lastUpdated,
      created,
      accessibility: { selfService: false },
      visibility: {
        autoLaunch: false,
        autoSubmitToolbar: false,
        hide: { iOS: false, web: false },
        appLinks: { login: true },
      },
      features: [],
      signOnMode: mode,
      ...fields,
    };
    state.apps.set(id, { data });
    appIds.push(id);

    const share = 0.1 + prng.next() * 0.2;
    const users = state.appUsers.of(id);
    for (const userId of people.assignableUserIds) {
      if (!prng.chance(share)) continue;
      const user = state.users.get(userId);
      if (user) users.set(userId, { data: newAppUser(user.data, {}, ctx.timestamps().created) });
    }
    const groups = state.appGroups.of(id);
    prng.sample(people.groupIds, prng.int(1, 3)).forEach((groupId, priority) =>
      groups.set(groupId, {
        data: { id: groupId, lastUpdated: ctx.timestamps().lastUpdated, priority, profile: {} },
      }),
    );
  }
  return appIds;
}
