import {
  applyDecorators,
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Post,
  Query,
  Redirect,
} from '@nestjs/common';
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
import { html, HTML_PAGE_HEADERS, renderPage } from '@app/identity/sign-in/html.js';
import { CONFIRM_PATH, NewsletterService, UNSUBSCRIBE_PATH } from './newsletter.service.js';

/** Where a newsletter link redirects. */
const LOCATION = { Location: { description: 'The page to show.', schema: { type: 'string' } } };

/** The public newsletter (spec "Newsletter", docs/security.md). */
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

  /**
   * The confirmation mail's link: changes nothing (mail scanners open links), and leads to a page
   * whose button posts the confirmation.
   */
  @Get('confirm')
  @ApiOperation({ summary: 'Show the page that confirms a newsletter subscription' })
  @Redirect('/subscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the confirmation mail.' })
  @ApiFoundResponse({
    description: 'To /subscribed, with the token for its confirm button when one is given.',
    headers: LOCATION,
  })
  confirmPage(@Query('token') token: unknown): { url: string } {
    return { url: withToken('/subscribed', token) };
  }

  /** The confirm page's button; a bad, used, voided or expired token still redirects. */
  @Post('confirm')
  @ApiOperation({ summary: 'Confirm a newsletter subscription' })
  @Redirect('/subscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the confirmation mail.' })
  @ApiFoundResponse({ description: 'To /subscribed, whatever the token.', headers: LOCATION })
  async confirm(@Query('token') token: unknown): Promise<void> {
    await this.newsletter.confirm(token);
  }

  /**
   * The unsubscribe link of every mail: changes nothing (mail scanners open links), and leads to
   * a page whose button posts the unsubscribe (the one-click POST below).
   */
  @Get('unsubscribe')
  @ApiOperation({ summary: 'Show the page that unsubscribes from the newsletter' })
  @Redirect('/unsubscribed', 302)
  @ApiQuery({ name: 'token', required: false, description: 'From the newsletter mail.' })
  @ApiFoundResponse({
    description: 'To /unsubscribed, with the token for its unsubscribe button when one is given.',
    headers: LOCATION,
  })
  unsubscribePage(@Query('token') token: unknown): { url: string } {
    return { url: withToken('/unsubscribed', token) };
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

/** A token as the mails carry it (base64url); anything else is dropped rather than put in a page. */
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** `page`, with `?token=` when `token` looks like one. */
function withToken(page: string, token: unknown): string {
  return typeof token === 'string' && TOKEN.test(token) ? `${page}?token=${token}` : page;
}

/** A page whose one button posts to `action`: acting on a POST only, never on a GET. */
function buttonPage(title: string, text: string, action: string, button: string, field?: [string, string]) {
  return renderPage(
    title,
    html`<h1>${title}</h1>
      <p>${text}</p>
      <form method="post" action="${action}">
        ${field ? html`<input type="hidden" name="${field[0]}" value="${field[1]}" />` : null}
        <button type="submit">${button}</button>
      </form>`,
  );
}

const donePage = (title: string, text: string): string =>
  renderPage(
    title,
    html`<h1>${title}</h1>
      <p>${text}</p>`,
  );

/** Every header of the pages (CSP, no framing, no caching, no referrer), as the sign-in pages send. */
const PageHeaders = () =>
  applyDecorators(...Object.entries(HTML_PAGE_HEADERS).map(([name, value]) => Header(name, value)));

/**
 * The two small pages the newsletter's links land on: HTML for people, not part of the API. With
 * a token they show the button that acts (a POST, which link-scanning mail filters do not send);
 * without one, what happened.
 */
@ApiExcludeController()
@Public()
@Controller()
export class NewsletterPagesController {
  @Get('unsubscribed')
  @PageHeaders()
  unsubscribed(@Query('token') token: unknown): string {
    const action = withToken(UNSUBSCRIBE_PATH, token);
    return action === UNSUBSCRIBE_PATH
      ? donePage('Unsubscribed', 'You will receive no more newsletters at this address.')
      : buttonPage(
          'Unsubscribe',
          'Stop receiving the idp-backup newsletter at this address?',
          action,
          'Unsubscribe',
          ['List-Unsubscribe', 'One-Click'],
        );
  }

  @Get('subscribed')
  @PageHeaders()
  subscribed(@Query('token') token: unknown): string {
    const action = withToken(CONFIRM_PATH, token);
    return action === CONFIRM_PATH
      ? donePage('Subscription confirmed', 'Thank you: the newsletter will reach you at this address.')
      : buttonPage(
          'Confirm your subscription',
          'Receive the idp-backup newsletter at this address?',
          action,
          'Confirm my subscription',
        );
  }
}
