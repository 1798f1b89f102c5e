import { Controller, Get, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@app/common/decorators.js';
import { SignInPageFilter } from './sign-in-page.filter.js';
import { SignInService } from './sign-in.service.js';

/**
 * Browser redirects of a sign-in through the customer's identity provider: `GET /sign-in/oidc`
 * sends the browser there, `GET /sign-in/oidc/callback` (the redirect URI to register at the
 * provider: BASE_URL + OIDC_CALLBACK_PATH) brings it back signed in. Failures are HTML pages.
 */
@ApiExcludeController()
@Public()
@UseFilters(SignInPageFilter)
@Controller('sign-in/oidc')
export class UpstreamSignInController {
  constructor(private readonly signIn: SignInService) {}

  /** @param returnTo local path, or URL on an allowed console origin, to land on once signed in (default `/`). */
  @Get()
  async start(@Query('return_to') returnTo: unknown, @Res() response: Response): Promise<void> {
    const { location, setCookie } = await this.signIn.startUpstream(returnTo);
    response
      .setHeader('Set-Cookie', setCookie)
      .setHeader('Cache-Control', 'no-store')
      .redirect(303, location);
  }

  @Get('callback')
  async callback(@Req() request: Request, @Res() response: Response): Promise<void> {
    const result = await this.signIn.finishUpstream(request.originalUrl, request.headers.cookie);
    response
      .setHeader('Set-Cookie', result.setCookies)
      .setHeader('Cache-Control', 'no-store')
      .redirect(303, result.returnTo);
  }
}
