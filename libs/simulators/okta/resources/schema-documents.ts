import type { Json } from '@libs/simulators/okta/store/entry.js';

const DRAFT_04 = 'http://json-schema.org/draft-04/schema#';

const text = (title: string, extra: Json = {}): Json => ({
  title,
  type: 'string',
  mutability: 'READ_WRITE',
  scope: 'NONE',
  permissions: [{ principal: 'SELF', action: 'READ_WRITE' }],
  ...extra,
});

/** The base properties every Okta user profile has (Users API, default profile). */
const USER_BASE: Json = {
  login: text('Username', { required: true, minLength: 5, maxLength: 100, pattern: '.+' }),
  firstName: text('First name', { required: true, minLength: 1, maxLength: 50 }),
  lastName: text('Last name', { required: true, minLength: 1, maxLength: 50 }),
  email: text('Primary email', { required: true, format: 'email' }),
  secondEmail: text('Secondary email', { format: 'email' }),
  mobilePhone: text('Mobile phone', { maxLength: 100 }),
  title: text('Title'),
  department: text('Department'),
  city: text('City'),
  employeeNumber: text('Employee number'),
};

/**
 * A definition's `required`: the names of its properties marked `required: true`, absent while it
 * has no properties. As Okta serves it (recorded in ../shared/fixtures/okta/vcr,
 * TestAccResourceOktaAppUserSchemas_enum_integer: a new app's `custom` is
 * `{"id":"#custom","type":"object","properties":{}}`, `"required":[]` once it holds a property, and
 * no `required` again once its last property is removed).
 */
function requiredOf(properties: Json): { required?: string[] } {
  const names = Object.keys(properties);
  if (names.length === 0) return {};
  return { required: names.filter((key) => (properties[key] as Json | null)?.required === true) };
}

/** `{ definitions: { custom, base }, properties.profile allOf both }`, as Okta shapes profile schemas. */
function profileSchema(id: string, name: string, title: string, base: Json, custom: Json, times: Json): Json {
  return {
    id,
    $schema: DRAFT_04,
    name,
    title,
    ...times,
    definitions: {
      custom: { id: '#custom', type: 'object', properties: custom, ...requiredOf(custom) },
      base: {
        id: '#base',
        type: 'object',
        properties: base,
        required: Object.keys(base).filter((key) => (base[key] as Json).required === true),
      },
    },
    type: 'object',
    properties: { profile: { allOf: [{ $ref: '#/definitions/custom' }, { $ref: '#/definitions/base' }] } },
  };
}

/** A user type's schema (`/api/v1/meta/schemas/user/{schemaId}`), with `custom` properties. */
export function userSchemaDocument(
  baseUrl: string,
  schemaId: string,
  title: string,
  custom: Json,
  times: Json,
): Json {
  return profileSchema(`${baseUrl}/meta/schemas/user/${schemaId}`, 'user', title, USER_BASE, custom, times);
}

/** The group schema (`/api/v1/meta/schemas/group/default`). */
export function groupSchemaDocument(baseUrl: string, custom: Json, times: Json): Json {
  const base = {
    name: text('Name', { required: true, maxLength: 255 }),
    description: text('Description', { maxLength: 1024 }),
  };
  return {
    ...profileSchema(`${baseUrl}/meta/schemas/group/default`, 'group', 'Okta group', base, custom, times),
    description: 'Okta group profile template',
  };
}

/** An app's user schema (`/api/v1/meta/schemas/apps/{appId}/default`). */
export function appUserSchemaDocument(baseUrl: string, app: Json, custom: Json, times: Json): Json {
  const base = { userName: text('Username', { required: true }) };
  const id = `${baseUrl}/meta/schemas/apps/${String(app.id)}/default`;
  return profileSchema(id, String(app.name), `${String(app.label)} User`, base, custom, times);
}

/**
 * A schema after a partial update (updateUserProfile, updateGroupSchema,
 * updateApplicationUserProfile): the body's `definitions` merged into the schema's, property
 * by property; a property set to null is removed ("to remove a property, set it to null"), and a
 * definition's `required` is the body's or else derived from its properties (requiredOf).
 */
export function mergeSchema(current: Json, body: Json, lastUpdated: string): Json {
  const definitions = { ...((current.definitions ?? {}) as Json) };
  for (const [name, change] of Object.entries((body.definitions ?? {}) as Json)) {
    const previous = (definitions[name] ?? { id: `#${name}`, type: 'object', properties: {} }) as Json;
    const properties = { ...((previous.properties ?? {}) as Json) };
    for (const [key, value] of Object.entries(((change as Json).properties ?? {}) as Json)) {
      if (value === null) delete properties[key];
      else properties[key] = value;
    }
    const { required: _previousRequired, ...rest } = previous;
    const required = (change as Json).required ?? requiredOf(properties).required;
    definitions[name] = { ...rest, properties, ...(required === undefined ? {} : { required }) };
  }
  return { ...current, definitions, lastUpdated };
}
