import { USER_SELECT } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/simulators/entra/tenant-state.js';

/**
 * The user properties the simulator stores for every user: the Graph v1.0 `user` properties a
 * backup keeps (the Entra catalogue's `$select`), every user holding all of them, null when
 * unset, as a client selecting them receives.
 */
export const USER_PROPERTIES = USER_SELECT;

/**
 * What `GET /users` returns without `$select` ("user-list": "By default, only a limited set of
 * properties are returned (businessPhones, displayName, givenName, id, jobTitle, mail,
 * mobilePhone, officeLocation, preferredLanguage, surname, and userPrincipalName)").
 */
export const USER_DEFAULT_PROPERTIES = [
  'businessPhones',
  'displayName',
  'givenName',
  'id',
  'jobTitle',
  'mail',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'surname',
  'userPrincipalName',
];

/** A user with every one of USER_PROPERTIES, `fields` over nulls (and no phones). */
export function userObject(
  fields: Partial<Record<(typeof USER_PROPERTIES)[number], unknown>> & { id: string },
): GraphObject {
  const user: Record<string, unknown> = {};
  for (const name of USER_PROPERTIES) user[name] = name === 'businessPhones' ? [] : null;
  // "user": `assignedLicenses` is never null, empty without licences (assignLicense sets it).
  return { ...user, assignedLicenses: [], ...fields } as GraphObject;
}
