import { Body, Controller, Get, Header, HttpCode, Post, Query, Redirect } from '@nestjs/common';
import { ApiFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { SubscribeDto } from './dto/subscribe.dto.js';
import { NewsletterService } from './newsletter.service.js';

/** The public newsletter (spec "Newsletter", issue 27). */
@ApiTags('newsletter')
@Public()
@Controller('api/newsletter')
export class NewsletterController {
  constructor(private readonly newsletter: NewsletterService) {}

  /** Sends a confirmation mail (double opt-in); `{ ok: true }` whether or not the address is known. */
  @Post('subscribe')
  @HttpCode(200)
  @ApiOkResponse({ description: '{ ok: true }' })
  async subscribe(@Body() body: SubscribeDto): Promise<{ ok: true }> {
    await this.newsletter.subscribe(body.email);
    return { ok: true };
  }

  /** The confirmation mail's link. */
  @Get('confirm')
  @Redirect('/subscribed', 302)
  @ApiFoundResponse({ description: 'To /subscribed, whatever the token.' })
  async confirm(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.confirm(token);
  }

  /** Unsubscribes (the link of every newsletter mail); a bad or used token still redirects. */
  @Get('unsubscribe')
  @Redirect('/unsubscribed', 302)
  @ApiFoundResponse({ description: 'To /unsubscribed, whatever the token.' })
  async unsubscribe(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.unsubscribe(token);
  }

  /** RFC 8058 one-click unsubscribe: the mail client posts `List-Unsubscribe=One-Click` to the same URL. */
  @Post('unsubscribe')
  @Redirect('/unsubscribed', 302)
  @ApiFoundResponse({ description: 'To /unsubscribed, whatever the token.' })
  async unsubscribeOneClick(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.unsubscribe(token);
  }
}

const page = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** The two small pages the newsletter's links land on. */
@Public()
@Controller()
export class NewsletterPagesController {
  @Get('unsubscribed')
  @Header('Content-Type', 'text/html; charset=utf-8')
  unsubscribed(): string {
    return page('Unsubscribed', 'You will receive no more newsletters at this address.');
  }

  @Get('subscribed')
  @Header('Content-Type', 'text/html; charset=utf-8')
  subscribed(): string {
    return page('Subscription confirmed', 'Thank you: the newsletter will reach you at this address.');
  }
}
