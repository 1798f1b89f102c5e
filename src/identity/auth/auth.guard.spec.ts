import { describe, expect, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { Actor } from '@app/common/actor.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import {
  Public,
  RequireAuthentication,
  RequirePermission,
  StateChangingGet,
} from '@app/common/decorators.js';
import { ForbiddenError, UnauthorizedError } from '@app/common/errors.js';
import { Permission } from '@app/common/permission.js';
import passport from 'passport';
import CustomStrategy from 'passport-custom';
import { type AuthRequest, newAuthStrategyNames } from './auth-strategy.js';
import { AuthGuard } from './auth.guard.js';

@Controller()
class Routes {
  @Public()
  @Get()
  open(): void {}

  @RequirePermission(Permission.ManageConnections)
  @Get()
  manage(): void {}

  @Get()
  forgotten(): void {}

  @RequireAuthentication()
  @Get()
  profile(): void {}

  @StateChangingGet()
  @RequirePermission(Permission.ViewBackups)
  @Get()
  spend(): void {}
}

@Public()
@Controller()
class PublicRoutes {
  @RequirePermission(Permission.Restore)
  @Get()
  restore(): void {}
}

/** Stands for whatever credentials a request carried: a fixed caller, or none. */
function fixedCaller(actor?: Actor): CustomStrategy {
  return new CustomStrategy((_request, done) => done(null, actor ?? false));
}

const viewer: Actor = { teamId: 't', userId: 'u', role: 'viewer', clientId: 'c' };
const admin: Actor = { ...viewer, role: 'admin' };

async function decide(
  caller: Actor | undefined,
  controller: object,
  handler: () => void,
  headers: Record<string, string> = {},
): Promise<unknown> {
  const request: AuthRequest & { socket: object } = {
    method: 'GET',
    headers: { 'x-request-id': 'req-1', ...headers },
    originalUrl: '/api/x',
    socket: { remoteAddress: '203.0.113.9' },
  };
  const names = newAuthStrategyNames();
  passport.use(names.bearerToken, fixedCaller());
  passport.use(names.sessionCookie, fixedCaller(caller));
  const sut = new AuthGuard(new Reflector(), names, { TRUST_PROXY_HOPS: 0 } as AppConfig);
  const response = { setHeader: () => undefined };
  const context = new ExecutionContextHost([request, response], controller as never, handler);
  return sut.canActivate(context).then(
    (allowed) => ({ allowed, actor: request.actor }),
    (error: unknown) => error,
  );
}

describe('AuthGuard', () => {
  it('lets anyone through a @Public() route', async () => {
    expect(await decide(undefined, Routes, Routes.prototype.open)).toEqual({
      allowed: true,
      actor: undefined,
    });
  });

  it('asks for authentication on a route with a permission', async () => {
    expect(await decide(undefined, Routes, Routes.prototype.manage)).toBeInstanceOf(UnauthorizedError);
  });

  it('admits a role holding the permission and records the caller with its origin', async () => {
    expect(await decide(admin, Routes, Routes.prototype.manage)).toEqual({
      allowed: true,
      actor: { ...admin, origin: { ip: '203.0.113.9', requestId: 'req-1' } },
    });
  });

  it('forbids a role without the permission', async () => {
    expect(await decide(viewer, Routes, Routes.prototype.manage)).toBeInstanceOf(ForbiddenError);
  });

  it('refuses a route that declares neither, even to a super_admin', async () => {
    const owner: Actor = { ...viewer, role: 'super_admin' };
    expect(await decide(owner, Routes, Routes.prototype.forgotten)).toBeInstanceOf(ForbiddenError);
    expect(await decide(undefined, Routes, Routes.prototype.forgotten)).toBeInstanceOf(ForbiddenError);
  });

  it('keeps a handler permission in force under a @Public() controller', async () => {
    expect(await decide(undefined, PublicRoutes, PublicRoutes.prototype.restore)).toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await decide(viewer, PublicRoutes, PublicRoutes.prototype.restore)).toBeInstanceOf(ForbiddenError);
  });

  it('admits every authenticated role on a @RequireAuthentication() route, and nobody else', async () => {
    expect(await decide(viewer, Routes, Routes.prototype.profile)).toMatchObject({ allowed: true });
    expect(await decide(undefined, Routes, Routes.prototype.profile)).toBeInstanceOf(UnauthorizedError);
  });

  it('refuses a state-changing GET another site started when it rides on the cookie, not when a token carries it', async () => {
    const crossSite = { 'sec-fetch-site': 'cross-site' };
    expect(await decide(viewer, Routes, Routes.prototype.spend, crossSite)).toBeInstanceOf(ForbiddenError);
    for (const site of ['same-site', 'same-origin', 'none'])
      expect(await decide(viewer, Routes, Routes.prototype.spend, { 'sec-fetch-site': site })).toMatchObject({
        allowed: true,
      });
    expect(
      await decide(viewer, Routes, Routes.prototype.spend, { ...crossSite, authorization: 'Bearer t' }),
    ).toMatchObject({ allowed: true });
    // Only marked routes: any other cookie GET another site starts goes on (SameSite=Lax allows it).
    expect(await decide(admin, Routes, Routes.prototype.manage, crossSite)).toMatchObject({ allowed: true });
  });
});
