import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@app/common/decorators.js';
import { SameOriginGuard } from '@app/identity/sessions/same-origin.guard.js';
import { HTML_PAGE_HEADERS, renderPage } from '@app/identity/sign-in/html.js';
import { SignInPageFilter } from '@app/identity/sign-in/sign-in-page.filter.js';
import { type InteractionOutcome, InteractionService } from './interaction.service.js';

/**
 * The authorization server's interaction pages (`interactions.url`): plain server-rendered
 * HTML forms, public (they are how a person signs in), CSRF-guarded by SameSite cookies and the
 * Origin check of SameOriginGuard.
 */
@ApiExcludeController()
@Public()
@UseGuards(SameOriginGuard)
@UseFilters(SignInPageFilter)
@Controller('interaction/:uid')
export class InteractionController {
  constructor(private readonly interactions: InteractionService) {}

  @Get()
  async show(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    write(res, await this.interactions.show(uid, { req, res }));
  }

  @Post('send-code')
  async sendCode(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    write(res, await this.interactions.sendCode(uid, { req, res }));
  }

  @Post('verify-code')
  async verifyCode(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    write(res, await this.interactions.verifyCode(uid, { req, res }));
  }

  @Post('consent')
  async consent(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    write(res, await this.interactions.consent(uid, { req, res }));
  }

  @Post('abort')
  async abort(@Param('uid') uid: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    write(res, await this.interactions.abort(uid, { req, res }));
  }
}

function write(res: Response, outcome: InteractionOutcome): void {
  if (outcome.setCookies) res.setHeader('Set-Cookie', outcome.setCookies);
  if (outcome.kind === 'redirect') {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, outcome.location);
    return;
  }
  res.status(outcome.status).set(HTML_PAGE_HEADERS).send(renderPage(outcome.title, outcome.body));
}
