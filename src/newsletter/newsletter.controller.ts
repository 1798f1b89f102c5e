import { Body, Controller, Get, Header, HttpCode, Post, Query, Redirect } from '@nestjs/common';
import {
  ApiExcludeController,
  ApiFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { OkResponseDto } from '@app/common/openapi/ok-response.dto.js';
import { SubscribeDto } from './dto/subscribe.dto.js';
import { NewsletterService } from './newsletter.service.js';

/** Where a newsletter link redirects. */
const LOCATION = { Location: { description: 'The page to show.', schema: { type: 'string' } } };

/** The public newsletter (spec "Newsletter", issue 27). */
@ApiTags('newsletter')
@Public()
@Controller('api/newsletter')
export class NewsletterController {
  constructor(private readonly newsletter: NewsletterService) {}

  /** Sends a confirmation mail (double opt-in); `{ ok: true }` whether or not the address is known. */
  @Post('subscribe')
  @ApiOperation({ summary: 'Subscribe to the newsletter' })
  @HttpCode(200)
  @ApiOkResponse({ type: OkResponseDto, description: 'The same answer whether or not the address is known.' })
  @ApiErrorResponses({ 400: '`email` missing or not an address.' })
  async subscribe(@Body() body: SubscribeDto): Promise<{ ok: true }> {
    await this.newsletter.subscribe(body.email);
    return { ok: true };
  }

  /** The confirmation mail's link. */
  @Get('confirm')
  @ApiOperation({ summary: 'Confirm a newsletter subscription' })
  @Redirect('/subscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the confirmation mail.' })
  @ApiFoundResponse({ description: 'To /subscribed, whatever the token.', headers: LOCATION })
  async confirm(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.confirm(token);
  }

  /** Unsubscribes (the link of every newsletter mail); a bad or used token still redirects. */
  @Get('unsubscribe')
  @ApiOperation({ summary: 'Unsubscribe from the newsletter' })
  @Redirect('/unsubscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the newsletter mail.' })
  @ApiFoundResponse({ description: 'To /unsubscribed, whatever the token.', headers: LOCATION })
  async unsubscribe(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.unsubscribe(token);
  }

  /** RFC 8058 one-click unsubscribe: the mail client posts `List-Unsubscribe=One-Click` to the same URL. */
  @Post('unsubscribe')
  @ApiOperation({ summary: 'Unsubscribe in one click (RFC 8058)' })
  @Redirect('/unsubscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the newsletter mail.' })
  @ApiFoundResponse({ description: 'To /unsubscribed, whatever the token.', headers: LOCATION })
  async unsubscribeOneClick(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.unsubscribe(token);
  }
}

const page = (title: string, text: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/** The two small pages the newsletter's links land on: HTML for people, not part of the API. */
@ApiExcludeController()
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
