import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Actor } from './actor.js';
import type { Permission } from './permission.js';

export const IS_PUBLIC = 'isPublic';
export const REQUIRED_PERMISSION = 'requiredPermission';

/** Marks a route open to anonymous callers; every other route is denied by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);

/** The permission a route needs on the caller's team role (spec "Endpoints"), with its OpenAPI notes. */
export const RequirePermission = (permission: Permission): MethodDecorator & ClassDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: 'Missing, expired or invalid bearer token.' }),
    ApiForbiddenResponse({ description: `The role lacks the "${permission}" permission.` }),
  );

/** The authenticated caller, set on the request by the auth guard. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const actor = ctx.switchToHttp().getRequest<{ actor?: Actor }>().actor;
  if (!actor) throw new Error('CurrentActor used on a route without an authenticated actor');
  return actor;
});
