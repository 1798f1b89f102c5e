import {
  newClientSecret,
  newSigningKey,
  type RandomText,
} from '@libs/simulators/okta/resources/app-credentials.routes.js';
import { newBrandSettings, provisionBrand } from '@libs/simulators/okta/resources/brand-defaults.js';
import { appUserSchemaDocument } from '@libs/simulators/okta/resources/schema-documents.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { pairKey } from '@libs/simulators/okta/store/org-state.js';
import type { GeneratorContext } from './generator-context.js';

/** The authenticators of an Identity Engine org (recorded `/api/v1/authenticators`). */
const AUTHENTICATORS: ReadonlyArray<Json> = [
  {
    type: 'email',
    key: 'okta_email',
    status: 'ACTIVE',
    name: 'Email',
    settings: { allowedFor: 'any', tokenLifetimeInMinutes: 10 },
  },
  { type: 'password', key: 'okta_password', status: 'ACTIVE', name: 'Password' },
  {
    type: 'app',
    key: 'okta_verify',
    status: 'ACTIVE',
    name: 'Okta Verify',
    settings: {
      compliance: { fips: 'OPTIONAL' },
      channelBinding: { style: 'NUMBER_CHALLENGE', required: 'ALWAYS' },
      userVerification: 'PREFERRED',
      enrollmentSecurityLevel: 'ANY',
      userVerificationMethods: ['PIN', 'BIOMETRICS'],
    },
  },
  { type: 'phone', key: 'phone_number', status: 'ACTIVE', name: 'Phone', settings: { allowedFor: 'any' } },
  {
    type: 'security_question',
    key: 'security_question',
    status: 'ACTIVE',
    name: 'Security Question',
    settings: { allowedFor: 'recovery' },
  },
  { type: 'security_key', key: 'webauthn', status: 'INACTIVE', name: 'Security Key or Biometric' },
];

/** Okta's default behavior detection rules (Behavior Detection API). */
const BEHAVIORS: ReadonlyArray<Json> = [
  {
    name: 'New Geo-Location',
    type: 'ANOMALOUS_LOCATION',
    settings: { maxEventsUsedForEvaluation: 50, granularity: 'CITY' },
  },
  { name: 'New Device', type: 'ANOMALOUS_DEVICE', settings: { maxEventsUsedForEvaluation: 20 } },
  { name: 'New IP', type: 'ANOMALOUS_IP', settings: { maxEventsUsedForEvaluation: 50 } },
  { name: 'Velocity', type: 'VELOCITY', settings: { velocityKph: 805 } },
];

const IDP_POLICY: Json = {
  provisioning: {
    action: 'AUTO',
    profileMaster: false,
    groups: { action: 'NONE' },
    conditions: { deprovisioned: { action: 'NONE' }, suspended: { action: 'NONE' } },
  },
  accountLink: { action: 'AUTO' },
  subject: { userNameTemplate: { template: 'idpuser.email' }, matchType: 'USERNAME' },
  maxClockSkew: 0,
};

/** Seeded random base62 text (keys, secrets), so that the same seed gives the same org. */
function randomText(ctx: GeneratorContext): RandomText {
  return (length) => oktaId('', ctx.prng.next, length);
}

function mapping(ctx: GeneratorContext, source: Json, target: Json, properties: Json): void {
  const id = ctx.id(ID_PREFIX.profileMapping);
  ctx.state.profileMappings.set(id, { data: { id, source, target, properties } });
}

/** Authenticators and behavior detection rules. */
function generateSecurity(ctx: GeneratorContext): void {
  for (const fields of AUTHENTICATORS) {
    const id = ctx.id(ID_PREFIX.authenticator);
    const { created, lastUpdated } = ctx.timestamps();
    ctx.state.authenticators.set(id, { data: { ...fields, id, created, lastUpdated } });
  }
  for (const [i, fields] of BEHAVIORS.entries()) {
    const id = ctx.id(ID_PREFIX.behavior);
    const { created, lastUpdated } = ctx.timestamps();
    const status = i === 3 ? 'INACTIVE' : 'ACTIVE';
    ctx.state.behaviors.set(id, { data: { id, ...fields, status, created, lastUpdated } });
  }
}

/**
 * A Google social IdP and an OIDC IdP (their client secrets served as Okta serves them) and a
 * SAML IdP, each with the profile mapping Okta creates from its users to the default user type.
 */
function generateIdentityProviders(ctx: GeneratorContext): void {
  const random = randomText(ctx);
  const domain = ctx.pools.companyDomain;
  const userType = { id: ctx.state.defaultUserTypeId, name: 'user', type: 'user' };
  const idps: Array<[string, string, Json]> = [
    [
      'Google Workspace',
      'GOOGLE',
      {
        type: 'OIDC',
        scopes: ['openid', 'email', 'profile'],
        credentials: {
          client: { client_id: `${random(12)}.apps.googleusercontent.com`, client_secret: random(35) },
        },
      },
    ],
    [
      'Partner SSO',
      'OIDC',
      {
        type: 'OIDC',
        endpoints: {
          authorization: { url: `https://sso.partner.example/authorize`, binding: 'HTTP-REDIRECT' },
          token: { url: `https://sso.partner.example/token`, binding: 'HTTP-POST' },
          jwks: { url: `https://sso.partner.example/keys`, binding: 'HTTP-REDIRECT' },
        },
        scopes: ['openid', 'email'],
        issuer: { url: 'https://sso.partner.example' },
        credentials: { client: { client_id: random(20), client_secret: random(40) } },
      },
    ],
    [
      'Corporate ADFS',
      'SAML2',
      {
        type: 'SAML2',
        endpoints: {
          sso: {
            url: `https://adfs.${domain}/adfs/ls`,
            binding: 'HTTP-POST',
            destination: `https://adfs.${domain}/adfs/ls`,
          },
          acs: { binding: 'HTTP-POST', type: 'INSTANCE' },
        },
        // Okta answers every SAML IdP with its service provider entity id and signing key (recorded).
        credentials: {
          trust: {
            issuer: `http://adfs.${domain}/adfs/services/trust`,
            audience: `https://www.okta.com/saml2/service-provider/sp${random(18).toLowerCase()}`,
            kid: random(36),
          },
          signing: { kid: random(43) },
        },
      },
    ],
  ];
  for (const [name, type, protocol] of idps) {
    const id = ctx.id(ID_PREFIX.identityProvider);
    const { created, lastUpdated } = ctx.timestamps();
    ctx.state.identityProviders.set(id, {
      data: {
        id,
        issuerMode: 'ORG_URL',
        name,
        status: 'ACTIVE',
        created,
        lastUpdated,
        protocol,
        policy: IDP_POLICY,
        type,
      },
    });
    // Okta names an IdP's mapping source `<type>_idp` (recorded: google_idp, saml_idp, oidc_idp).
    mapping(ctx, { id, name: `${type.toLowerCase()}_idp`, type: 'appuser' }, userType, {
      firstName: { expression: 'appuser.firstName', pushStatus: 'DONT_PUSH' },
      lastName: { expression: 'appuser.lastName', pushStatus: 'DONT_PUSH' },
      email: { expression: 'appuser.email', pushStatus: 'DONT_PUSH' },
      login: { expression: 'appuser.email', pushStatus: 'DONT_PUSH' },
    });
  }
}

/**
 * What hangs off each app: its user schema, its signing key (the kid its credentials name),
 * an OIDC app's client secret, a sign-on (access) policy when the org has one, and for SAML
 * apps provisioning features with the profile mapping from Okta users to the app.
 */
function generateAppResources(ctx: GeneratorContext, appIds: readonly string[]): void {
  const { state } = ctx;
  const random = randomText(ctx);
  const accessPolicies = [...state.policies.valuesInOrder()].filter((p) => p.data.type === 'ACCESS_POLICY');
  const userType = { id: state.defaultUserTypeId, name: 'user', type: 'user' };
  for (const [i, appId] of appIds.entries()) {
    const app = state.apps.get(appId);
    if (!app) continue;
    const { created, lastUpdated, createdMs } = ctx.timestamps();
    state.appUserSchemas
      .of(appId)
      .set('default', { data: appUserSchemaDocument(ctx.baseUrl, app.data, {}, { created, lastUpdated }) });
    const kid = ((app.data.credentials as Json | undefined)?.signing as Json | undefined)?.kid;
    if (typeof kid === 'string') {
      const key = newSigningKey(created, oktaTimestamp(createdMs + 10 * 365 * 24 * 3600 * 1000), random);
      state.appKeys.of(appId).set(kid, { data: { ...key, kid } });
    }
    const mode = app.data.signOnMode;
    if (mode === 'OPENID_CONNECT') {
      const secretId = ctx.id(ID_PREFIX.clientSecret);
      state.appSecrets.of(appId).set(secretId, { data: newClientSecret(secretId, created, random) });
    }
    if (accessPolicies.length > 0) {
      const policyId = String(accessPolicies[i % accessPolicies.length].data.id);
      state.apps.set(appId, { ...app, linkPaths: { accessPolicy: `/api/v1/policies/${policyId}` } });
    }
    if (mode === 'SAML_2_0') {
      const features = state.appFeatures.of(appId);
      features.set('USER_PROVISIONING', {
        data: {
          name: 'USER_PROVISIONING',
          status: 'ENABLED',
          description: 'User provisioning settings from Okta to a downstream application',
          capabilities: {
            create: { lifecycleCreate: { status: 'ENABLED' } },
            update: {
              lifecycleDeactivate: { status: 'ENABLED' },
              profile: { status: 'ENABLED' },
              password: { status: 'DISABLED', seed: 'RANDOM', change: 'KEEP_EXISTING' },
            },
          },
        },
      });
      features.set('INBOUND_PROVISIONING', {
        data: {
          name: 'INBOUND_PROVISIONING',
          status: 'DISABLED',
          description: 'In-bound provisioning settings for provisioning users from an application to Okta',
          capabilities: {
            importSettings: { username: { usernameFormat: 'EMAIL' }, schedule: { status: 'DISABLED' } },
            importRules: {
              userCreateAndMatch: {
                exactMatchCriteria: 'USERNAME',
                allowPartialMatch: false,
                autoConfirmPartialMatch: false,
                autoConfirmExactMatch: false,
                autoConfirmNewUsers: false,
                autoActivateNewUsers: false,
              },
            },
          },
        },
      });
      mapping(
        ctx,
        userType,
        { id: appId, name: String(app.data.name), type: 'appuser' },
        {
          userName: { expression: 'user.login', pushStatus: 'PUSH' },
          email: { expression: 'user.email', pushStatus: 'PUSH' },
        },
      );
    }
  }
}

/** An active event hook on user lifecycle events and two inline hooks (token, registration). */
function generateHooks(ctx: GeneratorContext): void {
  const { state } = ctx;
  const domain = ctx.pools.companyDomain;
  const channel = (uri: string) => ({
    type: 'HTTP',
    version: '1.0.0',
    config: { uri, headers: [], method: 'POST', authScheme: { type: 'HEADER', key: 'Authorization' } },
  });
  for (const [name, status, items] of [
    [
      'SIEM lifecycle feed',
      'ACTIVE',
      ['user.lifecycle.create', 'user.lifecycle.deactivate', 'user.lifecycle.delete.initiated'],
    ],
    ['Old HR sync', 'INACTIVE', ['group.user_membership.add']],
  ] as const) {
    const id = ctx.id(ID_PREFIX.eventHook);
    const { created, lastUpdated } = ctx.timestamps();
    state.eventHooks.set(id, {
      data: {
        id,
        status,
        verificationStatus: status === 'ACTIVE' ? 'VERIFIED' : 'UNVERIFIED',
        name,
        created,
        createdBy: state.adminUserId,
        lastUpdated,
        events: { type: 'EVENT_TYPE', items: [...items] },
        channel: channel(`https://hooks.${domain}/okta/${id}`),
      },
    });
  }
  for (const [name, type, status] of [
    ['Token enrichment', 'com.okta.oauth2.tokens.transform', 'ACTIVE'],
    ['Registration screening', 'com.okta.user.pre-registration', 'INACTIVE'],
  ] as const) {
    const id = ctx.id(ID_PREFIX.inlineHook);
    const { created, lastUpdated } = ctx.timestamps();
    state.inlineHooks.set(id, {
      data: {
        id,
        status,
        name,
        type,
        version: '1.0.0',
        channel: channel(`https://hooks.${domain}/inline/${id}`),
        created,
        lastUpdated,
      },
    });
  }
}

/**
 * The default brand and a partner brand, each with Okta's theme, email templates and sign-out
 * page; customized email content (two languages), a customized sign-in and error page, an
 * externally hosted sign-out page; and the partner brand's custom domain.
 */
function generateBrands(ctx: GeneratorContext): void {
  const { state } = ctx;
  const domain = ctx.pools.companyDomain;
  const brand = (name: string, isDefault: boolean): string => {
    const id = ctx.id(ID_PREFIX.brand);
    state.brands.set(id, {
      data: {
        id,
        name,
        ...newBrandSettings(),
        removePoweredByOkta: !isDefault,
        isDefault,
        locale: 'en',
      },
    });
    provisionBrand(state, id, ctx.id(ID_PREFIX.theme), ctx.baseUrl);
    return id;
  };
  const main = brand(`${domain} default`, true);
  const partner = brand('Partner portal', false);
  const customize = (
    brandId: string,
    template: string,
    language: string,
    subject: string,
    isDefault: boolean,
  ) => {
    const id = ctx.id(ID_PREFIX.emailCustomization);
    const { created, lastUpdated } = ctx.timestamps();
    state.emailCustomizations.of(pairKey(brandId, template)).set(id, {
      data: {
        subject,
        body: `<p>Hi $\{user.profile.firstName},</p><p>${subject}: $\{resetPasswordLink}</p>`,
        id,
        language,
        isDefault,
        created,
        lastUpdated,
      },
    });
  };
  customize(main, 'ForgotPassword', 'en', 'Reset your password', true);
  customize(main, 'ForgotPassword', 'fr', 'Réinitialisez votre mot de passe', false);
  customize(partner, 'UserActivation', 'en', 'Welcome to the partner portal', true);
  state.emailTemplates.of(main).set('NewSignOnNotification', {
    data: { name: 'NewSignOnNotification', settings: { recipients: 'NO_USERS' } },
  });
  state.brandPages.of(main).set('sign-in', {
    data: {
      pageContent: '<html><body><div id="okta-login-container"></div></body></html>',
      widgetVersion: '^7',
      widgetCustomizations: { widgetGeneration: 'G3' },
    },
  });
  state.brandPages
    .of(partner)
    .set('error', { data: { pageContent: '<html><body>Something went wrong.</body></html>' } });
  state.brandPages
    .of(partner)
    .set('sign-out', { data: { type: 'EXTERNALLY_HOSTED', url: `https://partners.${domain}/bye` } });
  const domainId = ctx.id(ID_PREFIX.customDomain);
  const host = `login.partners.${domain}`;
  state.customDomains.set(domainId, {
    data: {
      id: domainId,
      domain: host,
      certificateSourceType: 'OKTA_MANAGED',
      validationStatus: 'VERIFIED',
      brandId: partner,
      dnsRecords: [{ recordType: 'CNAME', fqdn: host, values: [`${host}.customdomains.okta.com`] }],
    },
  });
}

/**
 * The org's security and integration settings: authenticators, behaviors, identity providers,
 * app sub-resources, profile mappings, hooks, brands and the custom domain. A few dozen
 * objects, plus a handful per app.
 */
export function generateIntegrations(ctx: GeneratorContext, appIds: readonly string[]): void {
  generateSecurity(ctx);
  generateIdentityProviders(ctx);
  generateAppResources(ctx, appIds);
  generateHooks(ctx);
  generateBrands(ctx);
}
