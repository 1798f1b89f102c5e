import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  createdId,
  idParts,
  omit,
  pick,
  type RestoreDefinition,
  SERVER_OWNED,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';
import { customDomain } from './custom-domains.js';
import { emailCustomization } from './email-customizations.js';

/** BrandRequest (replaceBrand): what a brand's PUT sets; `isDefault` is Okta's. */
const BRAND_FIELDS = [
  'name',
  'agreeToCustomPrivacyPolicy',
  'customPrivacyPolicyUrl',
  'removePoweredByOkta',
  'locale',
  'defaultApp',
  'emailDomainId',
];

/** UpdateThemeRequest (replaceBrandTheme); logo, favicon and background image are uploads. */
const THEME_FIELDS = [
  'primaryColorHex',
  'primaryColorContrastHex',
  'secondaryColorHex',
  'secondaryColorContrastHex',
  'signInPageTouchPointVariant',
  'endUserDashboardTouchPointVariant',
  'errorPageTouchPointVariant',
  'emailTemplateTouchPointVariant',
  'loadingPageTouchPointVariant',
];

/** Brand pages a restore writes (Customized pages API); sign-out is a setting every brand has. */
const PAGES = ['sign-in', 'error', 'sign-out'];

/**
 * What replaceBrand sets. An unset privacy policy URL is `null` (Okta answers it so; omitting it
 * from a PUT clears it too), so a brand read without one compares equal to one that has it null.
 */
function brandSettings(data: OktaObject): OktaObject {
  return { ...pick(data, BRAND_FIELDS), customPrivacyPolicyUrl: data.customPrivacyPolicyUrl ?? null };
}

/** One PUT of a whole object (or setting) at `template`. */
async function put(
  template: string,
  params: Record<string, string>,
  body: OktaObject,
  context: WriteContext,
) {
  await context.api.write({ method: 'PUT', template, params, body, signal: context.signal });
}

/** The natural key of an org's default brand (no brand name holds a NUL character). */
const DEFAULT_BRAND_KEY = '\u0000default brand';

/**
 * Brands API. createBrand takes only a `name` (CreateBrandRequest; recorded: POST `{ name }`,
 * 201, then PUT the rest), so a brand is created and then replaced with the backed-up settings.
 * Names are unique (409 E0000202). The default brand is Okta's: it is only ever replaced.
 */
const brand = collectionDefinition(
  { path: '/api/v1/brands', params: ['brandId'], body: (writable) => writable },
  {
    writable: brandSettings,
    // The default brand is each org's one (named after its domain): it is the default brand of any
    // other org, whatever either is called, so a restore into another org changes the target's.
    naturalKey: (record) =>
      record.data.isDefault === true
        ? DEFAULT_BRAND_KEY
        : typeof record.data.name === 'string'
          ? record.data.name
          : null,
    managedBecause: (data) =>
      data.isDefault === true
        ? "Okta's default brand (the org's Okta domain) is never created or deleted, only changed"
        : null,
    async create(record, context) {
      const answer = await context.api.write({
        method: 'POST',
        template: '/api/v1/brands',
        body: { name: record.data.name },
        signal: context.signal,
      });
      const id = createdId(answer, 'a brand');
      await put('/api/v1/brands/{brandId}', { brandId: id }, brandSettings(record.data), context);
      return { id };
    },
  },
);

/**
 * Themes: Okta gives every brand one theme and removes it with the brand (listBrandThemes,
 * "Themes" API: get and replace only), so a restore replaces the live theme of the brand,
 * whatever its id. Uploaded images are files a backup never holds.
 */
const brandTheme: RestoreDefinition = {
  writable: (data) => pick(data, THEME_FIELDS),
  naturalKey: (record) => idParts(record.id)[0],
  managedBecause: () => 'Okta creates and deletes a brand theme with its brand: a restore only changes it',
  notes: [
    'Theme logos, favicons and background images are uploaded files a backup does not hold: upload them again if they changed',
  ],
  async update(record, live, context) {
    const [brandId, themeId] = idParts(live.id);
    await put(
      '/api/v1/brands/{brandId}/themes/{themeId}',
      { brandId, themeId },
      pick(record.data, THEME_FIELDS),
      context,
    );
    return [];
  },
};

/** `_embedded.settings` of an email template listed with `expand=settings` (the catalog's). */
function settingsOf(data: OktaObject): OktaObject {
  return ((data._embedded as { settings?: OktaObject } | undefined)?.settings ?? {}) as OktaObject;
}

/**
 * Email templates: Okta defines the set every brand has (listEmailTemplates); what an org sets
 * is who receives each one (replaceEmailSettings, `recipients`). Their content is the
 * email_customization type.
 */
const emailTemplate: RestoreDefinition = {
  writable: (data) => pick(settingsOf(data), ['recipients']),
  managedBecause: () => "Okta defines every brand's email templates: a restore sets their recipients only",
  async update(record, live, context) {
    const [brandId, templateName] = idParts(live.id);
    await put(
      '/api/v1/brands/{brandId}/templates/email/{templateName}/settings',
      { brandId, templateName },
      pick(settingsOf(record.data), ['recipients']),
      context,
    );
    return [];
  },
};

/** `[brandId, page]` of a brand_page record id, the page checked. */
function pageOf(recordId: string): [string, string] {
  const [brandId, page] = idParts(recordId);
  if (!PAGES.includes(page)) throw new Error(`Record id ${recordId} names no brand page`);
  return [brandId, page];
}

/** replaceCustomizedSignInPage / replaceCustomizedErrorPage / replaceSignOutPageSettings. */
async function replacePage(recordId: string, record: ResourceRecord, context: WriteContext) {
  const [brandId, page] = pageOf(recordId);
  await put(
    `/api/v1/brands/{brandId}/pages/${page}/customized`,
    { brandId },
    omit(record.data, SERVER_OWNED),
    context,
  );
}

/**
 * Customized pages: the customized sign-in and error pages (PUT sets them; DELETE resets the
 * brand to Okta's default page) and the sign-out page setting every brand has (PUT only:
 * "resetting" it is setting `OKTA_DEFAULT`).
 */
const brandPage: RestoreDefinition = {
  async create(record, context) {
    await replacePage(record.id, record, context);
    return { id: record.id };
  },
  async update(record, live, context) {
    await replacePage(live.id, record, context);
    return [];
  },
  async remove(live, context) {
    const [brandId, page] = pageOf(live.id);
    const template = `/api/v1/brands/{brandId}/pages/${page}/customized`;
    if (page === 'sign-out') await put(template, { brandId }, { type: 'OKTA_DEFAULT' }, context);
    else
      await context.api.write({
        method: 'DELETE',
        template,
        params: { brandId },
        okOn: [404],
        signal: context.signal,
      });
  },
};

/** How a restore writes the branding types (Brands, Themes, Email templates, Custom domains APIs). */
export function brandingDefinitions() {
  return {
    brand,
    brand_theme: brandTheme,
    email_template: emailTemplate,
    email_customization: emailCustomization,
    brand_page: brandPage,
    custom_domain: customDomain,
  } satisfies Record<string, RestoreDefinition>;
}
