import { idParts, omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import { answerMayBeLost } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  createdId,
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
  type OwnApp,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection } from '@libs/providers/entra/restore/graph-collection.js';
import { directoryLink } from './directory.js';
import { keyed } from './natural-key.js';
import { ownServicePrincipalBecause } from './own-app.js';
import { newSigningCertificate, SAML_RUNBOOK } from './saml-signing.js';

/**
 * Application properties Graph sets or that a restore cannot write ("application resource
 * type"): `appId` (Graph gives a new application a new one), `publisherDomain`,
 * `applicationTemplateId`, `certification`, `disabledByMicrosoftStatus` (read-only),
 * `verifiedPublisher` (set by "Set verifiedPublisher" with an MPN id), and the credentials:
 * `passwordCredentials` (the secret is answered once, by addPassword, never read) and
 * `keyCredentials` (Graph reads them without their `key`, which a write requires).
 */
const APPLICATION_NOT_WRITTEN = [
  ...ENTRA_SERVER_OWNED,
  'appId',
  'createdByAppId',
  'publisherDomain',
  'applicationTemplateId',
  'certification',
  'disabledByMicrosoftStatus',
  'verifiedPublisher',
  'passwordCredentials',
  'keyCredentials',
];

/**
 * Service principal properties that come from its application or that Graph sets
 * ("servicePrincipal resource type": `appDisplayName`, `appOwnerOrganizationId`,
 * `applicationTemplateId`, `signInAudience`, `servicePrincipalType`, `verifiedPublisher`,
 * `publisherName`, `appDescription` are read-only; `appRoles` and `oauth2PermissionScopes` of an
 * application's service principal are its application's), and its credentials (as an app's).
 */
const SERVICE_PRINCIPAL_NOT_WRITTEN = [
  ...ENTRA_SERVER_OWNED,
  'createdByAppId',
  'appDisplayName',
  'appOwnerOrganizationId',
  'applicationTemplateId',
  'signInAudience',
  'servicePrincipalType',
  'verifiedPublisher',
  'publisherName',
  'appDescription',
  'appRoles',
  'oauth2PermissionScopes',
  'resourceSpecificApplicationPermissions',
  'disabledByMicrosoftStatus',
  'info',
  'passwordCredentials',
  'keyCredentials',
];

const OWN_APP =
  "The connection's own app registration: a restore never changes or removes it, so it cannot lock itself out";
const CREDENTIALS_NOT_RESTORED =
  "A re-created application gets a new application (client) id and none of its client secrets or certificates: Graph never returns a secret, nor a certificate's key. Create a new client secret or upload the certificate again, then give the new client id and credentials to what signs in as the app (post-restore runbook)";
const SERVICE_PRINCIPAL_APART =
  'Deleting an application deletes its service principal, and bringing the application back from the deleted items does not bring that back: restore service_principal with it (its app role assignments and grants hang off it)';
const EXTENSION_RENAMED =
  "An extension property re-created on a re-created application is named after the new application id (extension_<appId>_<name>): users' values of the old one are not restored, and filters or claims that name it must be changed";
const SCOPED_TO_SP =
  'Consent and role assignments of a re-created service principal are restored with it (app_role_assignment, oauth2_permission_grant): users must not consent again';

/** The `extension_<appId without dashes>_` prefix Graph puts before an extension property's name. */
const EXTENSION_PREFIX = /^extension_[0-9a-f]{32}_/i;

/** Why a restore must not write this application: it is the connection's own. */
function ownApplicationBecause(data: GraphObject, own: OwnApp): string | null {
  return typeof data.appId === 'string' && data.appId.toLowerCase() === own.clientId.toLowerCase()
    ? OWN_APP
    : null;
}

/** Creations of one application at most when Graph's answers to the earlier ones were lost. */
const CREATE_ATTEMPTS = 5;

/** An application's natural key, its display name (see applicationDefinitions). */
const APPLICATION_KEY = keyed('application', (record) =>
  typeof record.data.displayName === 'string' ? record.data.displayName : null,
);

/**
 * "Create application" with the writable part, then, where the backup's `identifierUris` named
 * its old application id (`api://<appId>`, the default URI), "Update application" with them
 * naming the new one: Graph answers the new appId only once the application exists, and an
 * application's `api://` URI must name its own appId. A lost answer (answerMayBeLost) is
 * handled here rather than by the restorer, so that an application Graph made without
 * answering is found with its new appId, which `renamed` must carry.
 * @returns the new id, `renamed: { oldAppId: newAppId }`, and the runbook's note on credentials
 */
async function createApplication(record: ResourceRecord, context: EntraWriteContext) {
  const oldAppId = typeof record.data.appId === 'string' ? record.data.appId : undefined;
  const { identifierUris, ...body } = omit(record.data, APPLICATION_NOT_WRITTEN);
  const uris = Array.isArray(identifierUris) ? identifierUris.map(String) : [];
  const namesOld = oldAppId !== undefined && uris.some((uri) => uri.includes(oldAppId));
  let answer: GraphObject | null = null;
  for (let attempt = 1; ; attempt += 1) {
    try {
      answer = await context.graph.write({
        method: 'POST',
        template: '/v1.0/applications',
        body: namesOld ? body : { ...body, ...(identifierUris === undefined ? {} : { identifierUris }) },
        signal: context.signal,
      });
      break;
    } catch (error) {
      if (!answerMayBeLost(error) || attempt >= CREATE_ATTEMPTS) throw error;
      answer = (await APPLICATION_KEY.find(record, context))?.data ?? null;
      if (answer) break;
    }
  }
  const id = createdId(answer, 'an application');
  const newAppId = typeof answer?.appId === 'string' ? answer.appId : undefined;
  if (namesOld && newAppId)
    await context.graph.write({
      method: 'PATCH',
      template: '/v1.0/applications/{id}',
      params: { id },
      body: { identifierUris: uris.map((uri) => uri.split(oldAppId).join(newAppId)) },
      retryNotFound: true,
      signal: context.signal,
    });
  return {
    id,
    ...(oldAppId && newAppId ? { renamed: { [oldAppId]: newAppId } } : {}),
    notes: [CREDENTIALS_NOT_RESTORED],
  };
}

/** An extension property's name without Graph's `extension_<appId>_` prefix. */
function shortName(name: unknown): string {
  return String(name ?? '').replace(EXTENSION_PREFIX, '');
}

/**
 * Applications and what hangs off them, service principals, their app role assignments and
 * delegated permission grants ("Create application", "Update application", "Add owner",
 * "Create federatedIdentityCredential", "Create extensionProperty", "Create servicePrincipal",
 * "Grant an appRoleAssignment for a service principal", "Create oAuth2PermissionGrant", and the
 * updates and deletions of each). Applications and service principals still in the deleted items
 * come back from there with their ids and appId (EntraRestorer); only others are re-created.
 */
export function applicationDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    application: graphCollection(
      { path: '/v1.0/applications', params: ['id'] },
      {
        writable: (data) => omit(data, APPLICATION_NOT_WRITTEN),
        // A display name is what an admin knows an app by; Graph does not keep it unique, but a
        // re-run must find the application it created (its id and appId are new).
        naturalKey: APPLICATION_KEY.naturalKey,
        protectedBecause: ownApplicationBecause,
        create: createApplication,
        notes: [CREDENTIALS_NOT_RESTORED, SERVICE_PRINCIPAL_APART],
      },
    ),
    application_owner: directoryLink('/v1.0/applications/{id}/owners'),
    federated_identity_credential: graphCollection(
      {
        path: '/v1.0/applications/{applicationId}/federatedIdentityCredentials',
        params: ['applicationId', 'id'],
        // "Update federatedIdentityCredential": the name cannot change.
        updateBody: ({ name: _name, ...rest }) => rest,
      },
      {
        ...keyed(
          'federated_identity_credential',
          (record) => `${idParts(record.id)[0]}:${String(record.data.name)}`,
        ),
      },
    ),
    extension_property: graphCollection(
      {
        path: '/v1.0/applications/{applicationId}/extensionProperties',
        params: ['applicationId', 'id'],
      },
      {
        // "Create extensionProperty" takes the short name (Graph adds the prefix of its app's
        // appId). Graph cannot change an extension property (no update): a changed one is
        // another one.
        writable: (data) => ({
          ...pick(data, ['dataType', 'isMultiValued', 'targetObjects']),
          name: shortName(data.name),
        }),
        ...keyed('extension_property', (record) => `${idParts(record.id)[0]}:${shortName(record.data.name)}`),
        update: undefined,
        notes: [EXTENSION_RENAMED],
      },
    ),
    service_principal: graphCollection(
      {
        path: '/v1.0/servicePrincipals',
        params: ['id'],
        updateBody: ({ appId: _appId, ...rest }) => rest,
      },
      {
        writable: (data) => omit(data, SERVICE_PRINCIPAL_NOT_WRITTEN),
        ...keyed('service_principal', (record) =>
          typeof record.data.appId === 'string' ? record.data.appId : null,
        ),
        protectedBecause: ownApplicationBecause,
        // "Create servicePrincipal" takes the appId; the rest is an update.
        async create(record, context) {
          const answer = await context.graph.write({
            method: 'POST',
            template: '/v1.0/servicePrincipals',
            body: { appId: record.data.appId },
            retryNotFound: true,
            signal: context.signal,
          });
          const id = createdId(answer, 'a service principal');
          const { appId: _appId, ...rest } = omit(record.data, SERVICE_PRINCIPAL_NOT_WRITTEN);
          if (Object.keys(rest).length > 0)
            await context.graph.write({
              method: 'PATCH',
              template: '/v1.0/servicePrincipals/{id}',
              params: { id },
              body: rest,
              retryNotFound: true,
              signal: context.signal,
            });
          const notes =
            rest.preferredSingleSignOnMode === 'saml' ? await newSigningCertificate(id, record, context) : [];
          return { id, notes };
        },
        notes: [SCOPED_TO_SP, SAML_RUNBOOK],
      },
    ),
    app_role_assignment: graphCollection(
      {
        path: '/v1.0/servicePrincipals/{resourceId}/appRoleAssignedTo',
        params: ['resourceId', 'id'],
      },
      {
        writable: (data) => pick(data, ['principalId', 'resourceId', 'appRoleId']),
        // What an assignment grants is all it is: a different one is another assignment.
        ...keyed('app_role_assignment', (record) =>
          [record.data.principalId, record.data.appRoleId, record.data.resourceId].map(String).join(':'),
        ),
        update: undefined,
        protectedBecause: (data, own) => ownServicePrincipalBecause(data.principalId, own),
      },
    ),
    oauth2_permission_grant: graphCollection(
      {
        path: '/v1.0/oauth2PermissionGrants',
        params: ['id'],
        // "Update a delegated permission grant": only the scope changes.
        updateBody: (writable) => pick(writable, ['scope']),
      },
      {
        writable: (data) => pick(data, ['clientId', 'consentType', 'principalId', 'resourceId', 'scope']),
        ...keyed('oauth2_permission_grant', (record) =>
          [record.data.clientId, record.data.consentType, record.data.principalId, record.data.resourceId]
            .map(String)
            .join(':'),
        ),
      },
    ),
  };
}
