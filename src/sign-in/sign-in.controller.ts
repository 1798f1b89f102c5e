import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@app/common/decorators.js';
import { SameOriginGuard } from '@app/sessions/same-origin.guard.js';
import { SendCodeDto } from './dto/send-code.dto.js';
import type { SignedInDto } from './dto/signed-in.dto.js';
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
  @HttpCode(200)
  async sendCode(
    @Body() body: SendCodeDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ ok: true }> {
    const retryAfter = await this.signIn.sendCode(body.email);
    if (retryAfter > 0) {
      response.setHeader('Retry-After', retryAfter);
      throw new CodeBudgetSpentError();
    }
    return { ok: true };
  }

  /** Signs in with the code; the session comes back as the `__Host-session` cookie. */
  @Post('verify-code')
  @HttpCode(200)
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
  @HttpCode(200)
  async signOut(
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<{ ok: true }> {
    response.setHeader('Set-Cookie', await this.signIn.signOut(request.headers.cookie));
    return { ok: true };
  }
}
