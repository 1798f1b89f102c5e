import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { OktaError, notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { pairKey, type OrgState } from '@libs/simulators/okta/store/org-state.js';
import { newBrandSettings, provisionBrand, removeBrandChildren, replacedBrand } from './brand-defaults.js';
import { collectionRoutes } from './collection-routes.js';
import { serialize } from './links.js';
import { requireText } from './validation.js';

/** Customizable pages and the schema names of their bodies; sign-out cannot be reset. */
const PAGES = ['sign-in', 'error', 'sign-out'] as const;

const CUSTOMIZATIONS = '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations';

/** 409s of the email customization operations (OpenAPI examples `ErrorEmailCustomization*`). */
const defaultExists = () =>
  new OktaError(409, 'E0000182', 'A default email template customization already exists.');
const languageExists = () =>
  new OktaError(409, 'E0000183', 'An email template customization for that language already exists.');
const cannotDeleteDefault = () =>
  new OktaError(409, 'E0000184', "A default email template customization can't be deleted.");
const cannotClearDefault = () =>
  new OktaError(
    409,
    'E0000185',
    "The isDefault parameter of the default email template customization can't be set to false.",
  );

/**
 * An email template as listEmailTemplates answers it: its name, with `_embedded.settings` and
 * `_embedded.customizationCount` when `expand` asks for them (`expand=settings,customizationCount`
 * or the parameter repeated).
 */
export function emailTemplateJson(
  state: OrgState,
  brandId: string,
  entry: Entry,
  expand: readonly string[],
): Json {
  const name = String(entry.data.name);
  const embedded: Json = {};
  if (expand.includes('settings')) embedded.settings = entry.data.settings;
  if (expand.includes('customizationCount'))
    embedded.customizationCount = state.emailCustomizations.peek(pairKey(brandId, name))?.size ?? 0;
  return { name, ...(Object.keys(embedded).length > 0 ? { _embedded: embedded } : {}) };
}

/**
 * Brands (`/api/v1/brands`: created with 201, a theme, every email template and the default
 * sign-out page; names are unique, 409 E0000202; replaced whole, replacedBrand; the default
 * brand and a brand a custom domain uses cannot be deleted), their themes (get and replace only), email templates
 * (`/templates/email`: list, get, settings) with their customizations, and customized pages
 * (`/pages/sign-in|error/customized`: 404 until set, DELETE resets; `/pages/sign-out/customized`
 * always set, replace only).
 *
 * Customizations keep Okta's rules (Brands API "Email customization", OpenAPI 409 examples):
 * one per language; exactly one default per customized template, the first created, which
 * cannot be deleted (E0000184: `DELETE .../customizations` deletes them all) nor un-set
 * (E0000185); creating a second default is refused (E0000182), while replacing one with
 * `isDefault: true` moves the default to it.
 */
export function brandRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.brands') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.brands') } as const;
  const readTemplates = { kind: 'admin', scopes: readScopes('okta.templates') } as const;
  const writeTemplates = { kind: 'admin', scopes: manageScopes('okta.templates') } as const;
  const { state } = org;
  const brandOf = (brandId: string) => {
    if (!state.brands.has(brandId)) throw notFound(brandId, 'Brand');
    return brandId;
  };
  const template = ({ params }: RequestContext): Entry => {
    const entry = state.emailTemplates.peek(brandOf(params.brandId))?.get(params.templateName);
    if (!entry) throw notFound(params.templateName, 'EmailTemplate');
    return entry;
  };
  const customizationsOf = (params: Record<string, string>) => {
    template({ params } as RequestContext);
    return state.emailCustomizations.of(pairKey(params.brandId, params.templateName));
  };
  const expandOf = (url: URL) => url.searchParams.getAll('expand').flatMap((value) => value.split(','));

  const routes: Route[] = [
    ...collectionRoutes(
      {
        type: 'brand',
        kindName: 'Brand',
        path: '/api/v1/brands',
        idParam: 'brandId',
        idPrefix: ID_PREFIX.brand,
        scopeFamily: 'okta.brands',
        limits: PAGE_LIMITS.brands,
        listParams: ['q', 'expand'],
        stamps: [],
        collection: (o) => o.state.brands,
        defaults: (body, { org: o, id }) => {
          const name = requireText(body, 'name');
          if ([...o.state.brands.valuesInOrder()].some((brand) => brand.data.name === name))
            throw new OktaError(409, 'E0000202', 'Brand name already exists.');
          provisionBrand(o.state, id, oktaId(ID_PREFIX.theme), o.baseUrl);
          return newBrandSettings();
        },
        // CreateBrandRequest holds only the name; a PUT sets the rest.
        stored: (body) => ({ name: body.name }),
        createStatus: 201,
        guardDelete: (brand) => {
          if (brand.isDefault === true)
            return new OktaError(409, 'E0000001', 'The default brand cannot be deleted');
          const domains = [...state.customDomains.valuesInOrder()];
          return domains.some((domain) => domain.data.brandId === brand.id)
            ? new OktaError(409, 'E0000201', 'A brand associated with a domain cannot be deleted')
            : undefined;
        },
        cascadeDelete: (o, id) => removeBrandChildren(o.state, id),
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method !== 'PUT'),
    {
      method: 'PUT',
      template: '/api/v1/brands/{brandId}',
      access: write,
      handle: (context) => {
        const current = state.brands.get(brandOf(context.params.brandId))!;
        const body = jsonBody(context);
        requireText(body, 'name');
        const entry = replaced(current, replacedBrand(current.data, body));
        state.brands.set(context.params.brandId, entry);
        return jsonText(200, serialize('brand', entry, org.baseUrl));
      },
    },
    ...collectionRoutes(
      {
        type: 'brand_theme',
        kindName: 'Theme',
        path: '/api/v1/brands/{brandId}/themes',
        idParam: 'themeId',
        idPrefix: ID_PREFIX.theme,
        scopeFamily: 'okta.brands',
        limits: PAGE_LIMITS.unpaged,
        stamps: [],
        collection: (o, { brandId }) => o.state.brandThemes.of(brandOf(brandId)),
        parents: ({ brandId }) => [brandId],
        createStatus: 201,
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method === 'GET' || route.method === 'PUT'),
    {
      method: 'GET',
      template: '/api/v1/brands/{brandId}/templates/email',
      access: readTemplates,
      handle: (context) => {
        const brandId = brandOf(context.params.brandId);
        const expand = expandOf(context.url);
        return listReply(context, org.baseUrl, state.emailTemplates.peek(brandId), {
          limits: PAGE_LIMITS.brands,
          params: ['expand'],
          serialize: (e) => JSON.stringify(emailTemplateJson(state, brandId, e, expand)),
        });
      },
    },
    {
      method: 'GET',
      template: '/api/v1/brands/{brandId}/templates/email/{templateName}',
      access: readTemplates,
      handle: (context) =>
        jsonText(
          200,
          JSON.stringify(
            emailTemplateJson(state, context.params.brandId, template(context), expandOf(context.url)),
          ),
        ),
    },
    {
      method: 'GET',
      template: '/api/v1/brands/{brandId}/templates/email/{templateName}/settings',
      access: readTemplates,
      handle: (context) => jsonText(200, JSON.stringify(template(context).data.settings)),
    },
    {
      method: 'PUT',
      template: '/api/v1/brands/{brandId}/templates/email/{templateName}/settings',
      access: writeTemplates,
      handle: (context) => {
        const current = template(context);
        const recipients = jsonBody(context).recipients;
        if (!['ALL_USERS', 'ADMINS_ONLY', 'NO_USERS'].includes(String(recipients)))
          throw validationFailed('recipients', 'recipients: Must be ALL_USERS, ADMINS_ONLY or NO_USERS');
        const entry = replaced(current, { ...current.data, settings: { recipients } });
        state.emailTemplates.of(context.params.brandId).set(context.params.templateName, entry);
        return jsonText(200, JSON.stringify(entry.data.settings));
      },
    },
    ...collectionRoutes(
      {
        type: 'email_customization',
        kindName: 'EmailCustomization',
        path: CUSTOMIZATIONS,
        idParam: 'customizationId',
        idPrefix: ID_PREFIX.emailCustomization,
        scopeFamily: 'okta.templates',
        limits: PAGE_LIMITS.brands,
        collection: (_o, params) => customizationsOf(params),
        parents: ({ brandId, templateName }) => [brandId, templateName],
        defaults: (body, { params }) => {
          requireText(body, 'subject');
          requireText(body, 'body');
          const language = requireText(body, 'language');
          const existing = [...customizationsOf(params).valuesInOrder()];
          if (existing.some((e) => e.data.language === language)) throw languageExists();
          if (body.isDefault === true && existing.some((e) => e.data.isDefault === true))
            throw defaultExists();
          return { isDefault: existing.length === 0 || body.isDefault === true };
        },
        createStatus: 201,
        guardDelete: (current) => (current.isDefault === true ? cannotDeleteDefault() : undefined),
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method !== 'PUT'),
    {
      method: 'PUT',
      template: `${CUSTOMIZATIONS}/{customizationId}`,
      access: writeTemplates,
      handle: (context) => {
        const { params } = context;
        const customizations = customizationsOf(params);
        const current = customizations.get(params.customizationId);
        if (!current) throw notFound(params.customizationId, 'EmailCustomization');
        const body = jsonBody(context);
        const content = {
          subject: requireText(body, 'subject'),
          body: requireText(body, 'body'),
          language: requireText(body, 'language'),
        };
        const others = [...customizations.entries()].filter(([id]) => id !== params.customizationId);
        if (others.some(([, e]) => e.data.language === content.language)) throw languageExists();
        if (current.data.isDefault === true && body.isDefault === false) throw cannotClearDefault();
        const isDefault = body.isDefault === true || current.data.isDefault === true;
        const lastUpdated = oktaTimestamp(org.now());
        if (isDefault)
          for (const [id, e] of others)
            if (e.data.isDefault === true)
              customizations.set(id, replaced(e, { ...e.data, isDefault: false, lastUpdated }));
        const entry = replaced(current, { ...current.data, ...content, isDefault, lastUpdated });
        customizations.set(params.customizationId, entry);
        const parents = [params.brandId, params.templateName];
        return jsonText(200, serialize('email_customization', entry, org.baseUrl, parents));
      },
    },
    {
      method: 'DELETE',
      template: CUSTOMIZATIONS,
      access: writeTemplates,
      handle: ({ params }) => {
        customizationsOf(params);
        state.emailCustomizations.drop(pairKey(params.brandId, params.templateName));
        return empty(204);
      },
    },
  ];
  for (const page of PAGES) {
    const path = `/api/v1/brands/{brandId}/pages/${page}/customized`;
    const existing = (brandId: string): Entry => {
      const entry = state.brandPages.peek(brandOf(brandId))?.get(page);
      if (!entry) throw notFound(page, 'CustomizedPage');
      return entry;
    };
    routes.push(
      {
        method: 'GET',
        template: path,
        access: read,
        handle: ({ params }) => jsonText(200, JSON.stringify(existing(params.brandId).data)),
      },
      {
        method: 'PUT',
        template: path,
        access: write,
        handle: (context) => {
          const body = jsonBody(context);
          if (page === 'sign-out' && !['EXTERNALLY_HOSTED', 'OKTA_DEFAULT'].includes(String(body.type)))
            throw validationFailed('type', 'type: Must be EXTERNALLY_HOSTED or OKTA_DEFAULT');
          state.brandPages.of(brandOf(context.params.brandId)).set(page, { data: body });
          return jsonText(200, JSON.stringify(body));
        },
      },
    );
    if (page !== 'sign-out')
      routes.push({
        method: 'DELETE',
        template: path,
        access: write,
        handle: ({ params }) => {
          existing(params.brandId);
          state.brandPages.of(params.brandId).delete(page);
          return empty(204);
        },
      });
  }
  return routes;
}
