import { isDeepStrictEqual } from 'node:util';

import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import {
  createdId,
  omit,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import { withoutPaths } from './without-paths.js';

/**
 * What Okta sets on an app itself: the OpenAPI Application's read-only properties (`orn`,
 * `features`, `name` once created, `settings.emOptInStatus`, signing rotation times), the signing
 * key it generates (`credentials.signing.kid`) and the client secret it answers a creation with.
 */
const OKTA_OWNED = [...SERVER_OWNED, 'orn', 'features', 'name'];
const OKTA_OWNED_PATHS = [
  'credentials.signing.kid',
  'credentials.signing.lastRotated',
  'credentials.signing.nextRotation',
  'credentials.oauthClient.client_secret',
  'settings.emOptInStatus',
];

/**
 * The name `writable` gives an app in the key of its own link (`<name>_link`, named after an app
 * whose name Okta may change on re-creation), so links compare whatever Okta named the app.
 */
const SOME_APP = '<app>';

const appLinksOf = (data: OktaObject) =>
  ((data.visibility as OktaObject | undefined)?.appLinks ?? {}) as OktaObject;

/**
 * Custom SAML and SWA apps (App Integration Wizard) are created without `name`, and Okta names
 * them `<subdomain>_<label>_<n>` (recorded: `oie-00_testacc826687444_13`,
 * TestAccResourceOktaAppSaml_crud and ..AutoLoginApplication_crud); every other app is created
 * from its catalog `name` (`oidc_client`, `template_swa`, `pagerduty`...).
 */
export function hasGeneratedName(data: OktaObject): boolean {
  return (
    ['SAML_2_0', 'AUTO_LOGIN'].includes(String(data.signOnMode)) &&
    /^[a-z0-9-]+_[a-z0-9]+_\d+$/.test(String(data.name))
  );
}

/** `visibility.appLinks` with the app's own link (`<name>_link`) under `ownLink`, or left out when null. */
function renameOwnLink(data: OktaObject, name: unknown, ownLink: string | null): OktaObject {
  const links = appLinksOf(data);
  const own = `${String(name)}_link`;
  if (!(own in links)) return data;
  const { [own]: shown, ...others } = links;
  const appLinks = ownLink === null ? others : { ...others, [ownLink]: shown };
  return { ...data, visibility: { ...(data.visibility as OktaObject), appLinks } };
}

/**
 * What a restore writes of an app: the app without what Okta sets (OKTA_OWNED), its OAuth
 * `client_id` included, even where Okta chose it (the old app id): createApplication takes a
 * client's `client_id` (ApplicationCredentialsOAuthClient), so the client applications that
 * use it keep working; its own link under one key whatever Okta named the app.
 */
function appWritable(data: OktaObject): OktaObject {
  const kept = withoutPaths(omit(data, OKTA_OWNED), OKTA_OWNED_PATHS);
  return renameOwnLink(kept, data.name, `${SOME_APP}_link`);
}

/**
 * The body of createApplication making the app `data` describes: its catalog `name` and own
 * link, or neither where Okta names the app (a custom one).
 */
function createBody(data: OktaObject): OktaObject {
  const body = omit(appWritable(data), ['status']);
  if (hasGeneratedName(data)) return renameOwnLink(body, SOME_APP, null);
  return { ...renameOwnLink(body, SOME_APP, `${String(data.name)}_link`), name: data.name };
}

/**
 * The body of replaceApplication making the live app `live` what `data` describes, sent as
 * recorded replacements send it: with the live app's name, its own link under that name, and
 * the signing key it uses (`credentials.signing.kid`: a restore never changes an app's key).
 */
function replaceBody(data: OktaObject, live: OktaObject): OktaObject {
  const body = renameOwnLink(omit(appWritable(data), ['status']), SOME_APP, `${String(live.name)}_link`);
  const kid = ((live.credentials as OktaObject | undefined)?.signing as OktaObject | undefined)?.kid;
  if (kid === undefined) return { ...body, name: live.name };
  const credentials = (body.credentials ?? {}) as OktaObject;
  const signing = { ...((credentials.signing ?? {}) as OktaObject), kid };
  return { ...body, name: live.name, credentials: { ...credentials, signing } };
}

/** `lifecycle/activate` or `/deactivate` of an app (activateApplication, deactivateApplication). */
async function setAppStatus(appId: string, status: string, context: WriteContext): Promise<void> {
  await context.api.write({
    method: 'POST',
    template: `/api/v1/apps/{appId}/lifecycle/${status === 'ACTIVE' ? 'activate' : 'deactivate'}`,
    params: { appId },
    signal: context.signal,
  });
}

async function replaceApp(appId: string, body: OktaObject, context: WriteContext): Promise<void> {
  await context.api.write({
    method: 'PUT',
    template: '/api/v1/apps/{appId}',
    params: { appId },
    body,
    signal: context.signal,
  });
}

/** What a re-created app needs from the admin, by sign-on mode. */
function recreatedNotes(data: OktaObject): string[] {
  const notes: string[] = [];
  const mode = String(data.signOnMode);
  if (mode === 'OPENID_CONNECT') {
    notes.push('New client secret (secrets are never backed up): give the client application its new secret');
  }
  if (['SAML_2_0', 'SAML_1_1', 'WS_FEDERATION'].includes(mode))
    notes.push('New signing certificate, SSO URL and issuer: give the service provider the new metadata');
  if (hasGeneratedName(data)) notes.push(`Okta named the re-created app anew (was ${String(data.name)})`);
  return notes;
}

/** Okta's own apps (Admin Console, Dashboard, Workflows, Identity Governance...), seen in real orgs. */
const OKTA_APPS = new Set(['saasure', 'flow', 'partner_portal', 'ldap_interface']);
const isOktaApp = (name: string) =>
  OKTA_APPS.has(name) || (name.startsWith('okta_') && name !== 'okta_org2org');

/** Apps a restore never creates or deletes. */
function appManagedBecause(data: OktaObject): string | null {
  if (isOktaApp(String(data.name)))
    return 'Okta creates its own apps (Admin Console, Dashboard, Workflows...) with the org and the features that use them';
  if (data.signOnMode === undefined || data.signOnMode === null)
    return 'Directory and identity-source integrations (Active Directory, LDAP, CSV, HR sources) come with their agent or import: set them up again, a restore only changes their settings';
  return null;
}

/**
 * Apps (Apps API): created from the backed-up app, its catalog `name` sent unless Okta generated
 * it, with `activate` as the status asks; replaced whole (PUT) after reading the live app, whose
 * name and signing key the replacement keeps; deleted once INACTIVE ("The application must be
 * deactivated before deletion", deleteApplication). Okta changes a custom app only while it is
 * active (400 E0000024 "No active instances", recorded), so an INACTIVE one is activated for the
 * change and deactivated after. Where a new app comes back differing from the backup (a link
 * Okta named after a new name), one PUT settles it.
 */
export const app: RestoreDefinition = collectionDefinition(
  { path: '/api/v1/apps', params: ['appId'], lifecycle: true, deactivateToDelete: true },
  {
    writable: appWritable,
    naturalKey: (record: ResourceRecord) => {
      const data = record.data;
      const template = hasGeneratedName(data) ? '' : String(data.name);
      return `${String(data.signOnMode)}:${template}:${String(data.label).toLowerCase()}`;
    },
    managedBecause: appManagedBecause,
    notes: [
      'A re-created app has a new id: OIDC clients keep their client_id and get a new client secret, SAML and WS-Federation apps a new signing certificate, SSO URL and issuer; give them to the client or service provider',
      'Client secrets, shared SWA passwords, provisioning connections (tokens) and uploaded logos are never backed up: set them again',
      "Okta's own apps and directory integrations are only updated, never re-created",
    ],
    async create(record, context) {
      const data = record.data;
      const wanted = String(data.status ?? 'ACTIVE');
      const generated = hasGeneratedName(data);
      const answer = (await context.api.write({
        method: 'POST',
        template: '/api/v1/apps',
        // A custom app is changed only while active: it stays active until settled.
        query: { activate: String(wanted === 'ACTIVE' || generated) },
        body: createBody(data),
        signal: context.signal,
      })) as OktaObject;
      const id = createdId(answer, 'an app');
      const differs = !isDeepStrictEqual(
        omit(appWritable(answer), ['status']),
        omit(appWritable(data), ['status']),
      );
      if (differs) await replaceApp(id, replaceBody(data, answer), context);
      if (answer.status !== wanted) await setAppStatus(id, wanted, context);
      return { id, notes: recreatedNotes(data) };
    },
    async update(record, live, context) {
      const data = record.data;
      const current = (await context.api.object({
        template: '/api/v1/apps/{appId}',
        params: { appId: live.id },
        signal: context.signal,
      })) as OktaObject;
      let status = current.status;
      if (hasGeneratedName(data) && status !== 'ACTIVE') {
        await setAppStatus(live.id, 'ACTIVE', context);
        status = 'ACTIVE';
      }
      await replaceApp(live.id, replaceBody(data, current), context);
      const wanted = data.status ?? status;
      if (wanted !== status) await setAppStatus(live.id, String(wanted), context);
      return [];
    },
  },
);
