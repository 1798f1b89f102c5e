import { type INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer, Reflector } from '@nestjs/core';
import { AUTHENTICATION_ONLY, IS_PUBLIC, REQUIRED_PERMISSION } from '@app/common/decorators.js';
import type { Permission } from '@app/common/permission.js';

/** One HTTP route of the running app, with what the auth guard reads from its metadata. */
export interface AppRoute {
  /** Upper case: GET, POST... */
  method: string;
  /** As Express matches it: `/api/connections/:id`. */
  path: string;
  /** `Controller.handler`, for messages. */
  handler: string;
  /** The permission the guard demands (handler over class, as AuthGuard reads it). */
  permission?: Permission;
  /** `@RequireAuthentication()`: any authenticated caller, whatever the role. */
  authenticationOnly: boolean;
  isPublic: boolean;
  /** The handler takes a `@Body()`. */
  hasBody: boolean;
}

/**
 * Every route Nest registered, read from the controllers' metadata the way the router and
 * the auth guard read it (handler metadata over class metadata).
 */
export function nestRoutes(app: INestApplication): AppRoute[] {
  const reflector = new Reflector();
  const routes: AppRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller));
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method: RequestMethod | undefined = Reflect.getMetadata(METHOD_METADATA, handler);
        if (method === undefined) continue;
        const targets = [handler, controller];
        const permission = reflector.getAllAndOverride<Permission | undefined>(REQUIRED_PERMISSION, targets);
        const isPublic = reflector.getAllAndOverride<boolean | undefined>(IS_PUBLIC, targets) === true;
        const authenticationOnly =
          reflector.getAllAndOverride<boolean | undefined>(AUTHENTICATION_ONLY, targets) === true;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as object;
        const hasBody = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`));
        for (const prefix of prefixes)
          for (const suffix of asList(Reflect.getMetadata(PATH_METADATA, handler))) {
            routes.push({
              method: RequestMethod[method],
              path: joinPath(prefix, suffix),
              handler: `${controller.name}.${name}`,
              permission,
              authenticationOnly,
              isPublic,
              hasBody,
            });
          }
      }
    }
  }
  return routes;
}

/** Every route the Express router holds (`METHOD /path`), whoever registered it. */
export function expressRoutes(app: INestApplication): string[] {
  const express = app.getHttpAdapter().getInstance() as {
    router: { stack: Array<{ route?: { path: string | string[]; methods: Record<string, boolean> } }> };
  };
  return express.router.stack.flatMap(({ route }) =>
    route
      ? asList(route.path).flatMap((path) =>
          Object.keys(route.methods)
            .filter((method) => route.methods[method])
            .map((method) => `${method.toUpperCase()} ${path}`),
        )
      : [],
  );
}

function asList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [value === undefined ? '/' : String(value)];
}

function joinPath(prefix: string, suffix: string): string {
  const joined = `/${prefix}/${suffix}`.replace(/\/+/g, '/');
  return joined.length > 1 ? joined.replace(/\/$/, '') : joined;
}
