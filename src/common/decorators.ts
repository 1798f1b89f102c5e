import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOAuth2 } from '@nestjs/swagger';
import type { Actor } from './actor.js';
import type { Permission } from './permission.js';
import { ApiErrorResponses } from './openapi/api-error-responses.decorator.js';
import { API_SCOPE } from './api-scope.js';

export const IS_PUBLIC = 'isPublic';
export const REQUIRED_PERMISSION = 'requiredPermission';
export const AUTHENTICATION_ONLY = 'authenticationOnly';
export const STATE_CHANGING_GET = 'stateChangingGet';

/** Name of the OAuth 2.0 security scheme of the OpenAPI document (src/platform/bootstrap/openapi.ts). */
export const OAUTH2_SCHEME = 'oauth2';

/** Marks a route open to anonymous callers; every other route is denied by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/**
 * The permission a route needs on the caller's team role (spec "Endpoints"), with its OpenAPI
 * notes: `x-required-permission`, the security requirement (an OAuth 2.0 access token of the
 * service's authorization server, whichever grant obtained it) and the 401 and 403 answers.
 */
export const RequirePermission = (permission: Permission): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiExtension('x-required-permission', permission),
    ApiBearerAuth(),
    ApiOAuth2([API_SCOPE], OAUTH2_SCHEME),
    ApiErrorResponses({
      401: 'Missing, expired or invalid bearer token (`WWW-Authenticate: Bearer` names the resource metadata).',
      403: `The role lacks the "${permission}" permission.`,
    }),
  );

/**
 * A route open to any authenticated caller, whatever their role (the caller's own profile,
 * `GET /api/me`), with the OpenAPI security requirement and the 401 answer. Routes that act on
 * the team's data name a permission instead (`RequirePermission`).
 */
export const RequireAuthentication = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(AUTHENTICATION_ONLY, true),
    ApiBearerAuth(),
    ApiOAuth2([API_SCOPE], OAUTH2_SCHEME),
    ApiErrorResponses({
      401: 'Missing, expired or invalid bearer token (`WWW-Authenticate: Bearer` names the resource metadata).',
    }),
  );

/**
 * Marks a GET that changes state (it spends a quota, it records something): the auth guard
 * refuses it with 403 when it is cookie-authenticated and the browser says the request was
 * started by another site (`Sec-Fetch-Site: cross-site`, W3C Fetch Metadata Request Headers):
 * a SameSite=Lax session cookie still rides along on a cross-site top-level navigation
 * (RFC 6265bis §8.8.2), so a link on any page could otherwise make a signed-in person's browser
 * perform it. Bearer requests carry no ambient credential and are not concerned.
 */
export const StateChangingGet = (): MethodDecorator =>
  applyDecorators(
    SetMetadata(STATE_CHANGING_GET, true),
    ApiErrorResponses({
      403: 'The request rides on the session cookie and another site started it (`Sec-Fetch-Site: cross-site`).',
    }),
  );

/** The authenticated caller, set on the request by the auth guard. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<{ actor?: Actor }>().actor;
  if (!actor) throw new Error('CurrentActor used on a route without an authenticated actor');
  return actor;
});
