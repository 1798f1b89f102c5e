import { manageScopes, readScopes } from '../auth/principal.js';
import { OktaError, notFound, validationFailed } from '../http/okta-error.js';
import { empty, jsonText } from '../http/reply.js';
import { jsonBody } from '../http/request-body.js';
import type { RequestContext, Route } from '../http/router.js';
import type { OrgContext } from '../org-context.js';
import { listReply } from '../query/list-page.js';
import { PAGE_LIMITS } from '../query/page-limits.js';
import { replaced, type Entry, type Json } from '../store/entry.js';
import { ID_PREFIX, oktaId } from '../store/okta-ids.js';
import { pairKey, type OrgState } from '../store/org-state.js';
import { provisionBrand, removeBrandChildren } from './brand-defaults.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

/** Customizable pages and the schema names of their bodies; sign-out cannot be reset. */
const PAGES = ['sign-in', 'error', 'sign-out'] as const;

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
 * sign-out page; the default brand cannot be deleted), their themes (get and replace only),
 * email templates (`/templates/email`: list, get, settings) with their customizations (every
 * verb; the first per template is the default language), and customized pages
 * (`/pages/sign-in|error/customized`: 404 until set, DELETE resets; `/pages/sign-out/customized`
 * always set, replace only).
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
          requireText(body, 'name');
          provisionBrand(o.state, id, oktaId(ID_PREFIX.theme), o.baseUrl);
          return {
            isDefault: false,
            removePoweredByOkta: body.removePoweredByOkta ?? false,
            agreeToCustomPrivacyPolicy: body.agreeToCustomPrivacyPolicy ?? false,
            locale: body.locale ?? 'en',
          };
        },
        createStatus: 201,
        guardDelete: (brand) =>
          brand.isDefault === true
            ? new OktaError(409, 'E0000001', 'The default brand cannot be deleted')
            : undefined,
        cascadeDelete: (o, id) => removeBrandChildren(o.state, id),
        deleteStatus: 204,
      },
      org,
    ),
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
        path: '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations',
        idParam: 'customizationId',
        idPrefix: ID_PREFIX.emailCustomization,
        scopeFamily: 'okta.templates',
        limits: PAGE_LIMITS.brands,
        collection: (o, params) => {
          template({ params } as RequestContext);
          return o.state.emailCustomizations.of(pairKey(params.brandId, params.templateName));
        },
        parents: ({ brandId, templateName }) => [brandId, templateName],
        defaults: (body, { org: o, params }) => {
          requireText(body, 'subject');
          requireText(body, 'body');
          requireText(body, 'language');
          const existing = o.state.emailCustomizations.peek(pairKey(params.brandId, params.templateName));
          return { isDefault: body.isDefault ?? (existing?.size ?? 0) === 0 };
        },
        createStatus: 201,
        deleteStatus: 204,
      },
      org,
    ),
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
