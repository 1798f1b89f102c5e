import { isDeepStrictEqual } from 'node:util';

import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { idParts, pick, type RestoreDefinition } from '@libs/providers/okta/restore/restore-definition.js';

const definitionsOf = (schema: OktaObject | null) =>
  (schema?.definitions ?? {}) as Record<string, OktaObject>;
const propertiesOf = (definition: OktaObject | undefined) => (definition?.properties ?? {}) as OktaObject;

/**
 * The body of updateApplicationUserProfile that turns `live` into `backedUp`: the backed-up
 * custom properties, `null` for custom ones added since ("You must set properties explicitly to
 * null to remove them from the schema; otherwise, POST is interpreted as a partial update"), and
 * the base definition only when it differs (Okta lets only the nullability of some base
 * properties change).
 */
function schemaChanges(backedUp: OktaObject, live: OktaObject | null): OktaObject {
  const wanted = definitionsOf(backedUp);
  const current = definitionsOf(live);
  const removed = Object.keys(propertiesOf(current.custom)).filter(
    (name) => !(name in propertiesOf(wanted.custom)),
  );
  const custom = {
    ...wanted.custom,
    properties: {
      ...propertiesOf(wanted.custom),
      ...Object.fromEntries(removed.map((name) => [name, null])),
    },
  };
  const base = isDeepStrictEqual(wanted.base, current.base) ? {} : { base: wanted.base };
  return { definitions: { custom, ...base } };
}

/**
 * An app's user schema (`/api/v1/meta/schemas/apps/{appId}/default`), `<appId>:default`: Okta
 * makes it with the app and drops it with the app, so a restore only changes its definitions,
 * reading the live schema first to remove custom properties added since the backup.
 */
export const appUserSchema: RestoreDefinition = {
  writable: (data) => pick(data, ['definitions']),
  managedBecause: () => "Okta creates an app's user schema with the app and deletes it with the app",
  async update(record, live, context) {
    const params = { appId: idParts(live.id)[0] };
    const template = '/api/v1/meta/schemas/apps/{appId}/default';
    const current = await context.api.object({ template, params, signal: context.signal });
    await context.api.write({
      method: 'POST',
      template,
      params,
      body: schemaChanges(record.data, current),
      signal: context.signal,
    });
    return [];
  },
};
