import type { LiveResource } from '@libs/providers/provider-restore.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';
import { caseless, changesFrom, objectAt } from './definition-helpers.js';

/** Parts of a profile schema (`definitions.base`, `definitions.custom`), each a set of properties. */
type SchemaPart = 'base' | 'custom';

const propertiesOf = (schema: OktaObject, part: SchemaPart): OktaObject =>
  objectAt(objectAt(objectAt(schema, 'definitions'), part), 'properties');

/** What a restore compares of a profile schema: the properties of each part, nothing Okta derives. */
const schemaWritable =
  (parts: readonly SchemaPart[]) =>
  (schema: OktaObject): OktaObject => ({
    definitions: Object.fromEntries(parts.map((part) => [part, { properties: propertiesOf(schema, part) }])),
  });

/**
 * Turns the live schema at `template` into the backed-up one with one partial update (POST):
 * changed and missing properties of each part, custom properties added since set to null. Base
 * properties are never removed (Okta allows only limited changes to them). Nothing is sent when
 * nothing differs.
 */
async function updateSchema(
  template: string,
  params: Record<string, string>,
  wanted: OktaObject,
  parts: readonly SchemaPart[],
  context: WriteContext,
): Promise<void> {
  const live = await context.api.object({ template, params, signal: context.signal });
  const definitions: OktaObject = {};
  for (const part of parts) {
    const properties = changesFrom(
      propertiesOf(live ?? {}, part),
      propertiesOf(wanted, part),
      part === 'custom',
    );
    if (Object.keys(properties).length > 0)
      definitions[part] = { id: `#${part}`, type: 'object', properties };
  }
  if (Object.keys(definitions).length === 0) return;
  await context.api.write({
    method: 'POST',
    template,
    params,
    body: { definitions },
    signal: context.signal,
  });
}

const VALUES_GONE =
  'Custom attributes deleted since the backup come back empty: Okta deleted their values from every profile (restore the users too to put them back)';

/**
 * User Types API: name, display name and description (replaceUserType: "the name ... must be
 * part of the request body"); names are unique. Okta creates the default type with the org and
 * refuses to delete it or a type assigned to users.
 */
const userType = collectionDefinition(
  { path: '/api/v1/meta/types/user', params: ['typeId'] },
  {
    writable: (data) => pick(data, ['name', 'displayName', 'description']),
    naturalKey: (record) => caseless(record.data.name),
    managedBecause: (data) =>
      data.default === true ? 'Okta creates the default user type with the org and never deletes it' : null,
    notes: ['A user type assigned to users cannot be deleted: Okta refuses until its users change type'],
  },
);

/**
 * The schema id of a live user type: the last segment of its `_links.schema` (getUserType). A
 * re-created type has a schema of its own, so the backup's link is no guide.
 * @throws ProviderRequestError when Okta answers the type without the link
 */
async function userSchemaId(typeId: string, context: WriteContext): Promise<string> {
  const type = await context.api.object({
    template: '/api/v1/meta/types/user/{typeId}',
    params: { typeId },
    signal: context.signal,
  });
  const href = objectAt(objectAt(type ?? {}, '_links'), 'schema').href;
  const schemaId = typeof href === 'string' ? href.split('/').pop() : undefined;
  if (!schemaId) throw new ProviderRequestError(`Okta answered user type ${typeId} without its schema`, 200);
  return schemaId;
}

/**
 * A user type's schema (record `<userTypeId>:schema`), reached through the live type's link and
 * changed by updateUserProfile, base and custom properties alike. Okta creates it with its type
 * (from the default type's template) and deletes it with the type.
 */
const userSchema: RestoreDefinition = {
  writable: schemaWritable(['base', 'custom']),
  managedBecause: () =>
    "Okta creates a user type's schema with the type and deletes it with the type: a restore changes its properties",
  notes: [VALUES_GONE],
  async update(record: ResourceRecord, live: LiveResource, context: WriteContext) {
    const schemaId = await userSchemaId(idParts(live.id)[0], context);
    const template = '/api/v1/meta/schemas/user/{schemaId}';
    await updateSchema(template, { schemaId }, record.data, ['base', 'custom'], context);
    return [];
  },
};

/** The org's one group schema (updateGroupSchema): custom properties only, Okta's base ones being fixed. */
const groupSchema: RestoreDefinition = {
  writable: schemaWritable(['custom']),
  managedBecause: () => 'Okta keeps one group schema per org: a restore changes its custom properties',
  notes: [VALUES_GONE],
  async update(record: ResourceRecord, _live: LiveResource, context: WriteContext) {
    await updateSchema('/api/v1/meta/schemas/group/default', {}, record.data, ['custom'], context);
    return [];
  },
};

const LINKS_DROPPED =
  'A changed linked object definition is deleted and created again (Okta cannot change one): the links between users it held (who is whose manager) are dropped, and a backup does not hold them';

/** Linked Objects API: keyed by `primary.name`, created with 201, deleted by name, never changed. */
const linkedObjectWrites = collectionDefinition(
  {
    path: '/api/v1/meta/schemas/user/linkedObjects',
    params: ['linkedObjectName'],
    updateMethod: null,
    createdKey: (answer) => String(objectAt(answer, 'primary').name),
  },
  {
    writable: (data) => pick(data, ['primary', 'associated']),
    naturalKey: (record) => caseless(objectAt(record.data, 'primary').name),
  },
);

/** A linked object definition: an update is a deletion and a creation (see LINKS_DROPPED). */
const linkedObject: RestoreDefinition = {
  ...linkedObjectWrites,
  notes: [LINKS_DROPPED],
  async update(record, live, context) {
    await linkedObjectWrites.remove?.(live, context);
    await linkedObjectWrites.create?.(record, context, []);
    return [LINKS_DROPPED];
  },
};

/**
 * Profile mappings (Mappings API): Okta creates and deletes them with their app, identity
 * provider or user type, so a restore only changes their property mappings (updateProfileMapping,
 * a partial update), and finds a re-created source's or target's mapping by their ids.
 */
const profileMapping: RestoreDefinition = {
  writable: (data) => ({
    source: pick(objectAt(data, 'source'), ['id']),
    target: pick(objectAt(data, 'target'), ['id']),
    properties: objectAt(data, 'properties'),
  }),
  naturalKey: (record) => {
    const source = objectAt(record.data, 'source').id;
    const target = objectAt(record.data, 'target').id;
    return typeof source === 'string' && typeof target === 'string' ? `${source}>${target}` : null;
  },
  managedBecause: () =>
    'Okta creates and deletes profile mappings with their app, identity provider or user type: a restore changes their property mappings',
  async update(record, live, context) {
    const params = { mappingId: live.id };
    const template = '/api/v1/mappings/{mappingId}';
    const current = await context.api.object({ template, params, signal: context.signal });
    const properties = changesFrom(
      objectAt(current ?? {}, 'properties'),
      objectAt(record.data, 'properties'),
      true,
    );
    if (Object.keys(properties).length > 0)
      await context.api.write({
        method: 'POST',
        template,
        params,
        body: { properties },
        signal: context.signal,
      });
    return [];
  },
};

/** How a restore writes the schema types (User Types, Schemas, Linked Objects and Mappings APIs). */
export function schemaDefinitions() {
  return {
    user_type: userType,
    user_schema: userSchema,
    group_schema: groupSchema,
    linked_object: linkedObject,
    profile_mapping: profileMapping,
  } satisfies Record<string, RestoreDefinition>;
}
