import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { SameOriginGuard } from '@app/identity/sessions/same-origin.guard.js';
import { SendCodeDto } from './dto/send-code.dto.js';
import { SignedInDto } from './dto/signed-in.dto.js';
import { VerifyCodeDto } from './dto/verify-code.dto.js';
import { CodeBudgetSpentError } from './sign-in.errors.js';
import { SignInService } from './sign-in.service.js';

/**
 * The JSON sign-in endpoints of the web application (spec "Authentication" item 8; shapes in
 * docs/auth.md). Public: they are how one gets a session. Rate-limited per IP by the API's
 * limiter (spec "Limits": 20 per minute), per address by the code budget.
 */
@ApiTags('auth')
@Public()
@UseGuards(SameOriginGuard)
@Controller('api/auth')
export class SignInController {
  constructor(private readonly signIn: SignInService) {}

  /**
   * Sends a six-digit code to the address; the same answer whether or not it has an account.
   * 429 with `Retry-After` once the address was sent 5 codes in the hour.
   */
  @Post('send-code')
  @ApiOperation({ summary: 'Send a sign-in code by e-mail' })
  @HttpCode(200)
  @ApiOkResponse({
    type: OkResponseDto,
    description: 'The same answer whether or not the address has an account.',
  })
  @ApiErrorResponses({
    400: '`email` missing or not an address.',
    403: 'A cross-origin request (the `Origin` must be this service or an allowed console origin).',
    429: {
      codes: ['rate_limited'],
      description:
        'The address was sent 5 codes this hour, or the per-IP limit (20 a minute); see `Retry-After`.',
    },
    503: { codes: ['mail_unavailable'], description: 'The e-mail could not be sent.' },
  })
  async sendCode(@Body() body: SendCodeDto): Promise<{ ok: true }> {
    const retryAfter = await this.signIn.sendCode(body.email);
    if (retryAfter > 0) throw new CodeBudgetSpentError(retryAfter);
    return { ok: true };
  }

  /** Signs in with the code; the session comes back as the `__Host-session` cookie. */
  @Post('verify-code')
  @ApiOperation({ summary: 'Sign in with the code' })
  @HttpCode(200)
  @ApiOkResponse({ type: SignedInDto, description: 'Signed in; the session is the `__Host-session` cookie.' })
  @ApiErrorResponses({
    400: '`email` or `code` missing or malformed.',
    401: { codes: ['invalid_code'], description: 'The code is wrong or no longer valid.' },
    403: {
      codes: ['forbidden', 'no_team'],
      description: 'A cross-origin request, or an address that belongs to no team.',
    },
  })
  async verifyCode(
    @Body() body: VerifyCodeDto,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<SignedInDto> {
    const result = await this.signIn.verifyCode(body.email, body.code, request.headers.cookie);
    response.setHeader('Set-Cookie', result.setCookies);
    return result.signedIn;
  }

  /** Ends the session, if any, and deletes its cookie. */
  @Post('sign-out')
  @ApiOperation({ summary: 'Sign out' })
  @HttpCode(200)
  @ApiOkResponse({
    type: OkResponseDto,
    description: 'The session, if any, is ended and its cookie deleted.',
  })
  @ApiErrorResponses({
    403: 'A cross-origin request (the `Origin` must be this service or an allowed console origin).',
  })
  async signOut(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ ok: true }> {
    response.setHeader('Set-Cookie', await this.signIn.signOut(request.headers.cookie));
    return { ok: true };
  }
}
