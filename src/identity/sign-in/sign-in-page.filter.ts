import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { RetryLaterError } from '@app/common/errors.js';
import { html, HTML_PAGE_HEADERS, renderPage } from './html.js';

/**
 * Errors of the browser-facing sign-in routes as an HTML page (a person is looking at it, not a
 * program): the status and message of an ApiError, and a RetryLaterError's `Retry-After`; an unknown error is logged and shown as a
 * generic failure, never with its details.
 */
@Catch()
export class SignInPageFilter implements ExceptionFilter {
  private readonly logger = new Logger(SignInPageFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    let status = 500;
    let message = 'Something went wrong on our side; please try again.';
    if (exception instanceof HttpException) {
      status = exception.getStatus();
      message = exception.message;
    } else {
      this.logger.error(
        'Sign-in page failed',
        exception instanceof Error ? exception.stack : String(exception),
      );
    }
    const body = html`<h1>Sign-in failed</h1>
      <p class="error">${message}</p>
      <p><a href="/">Back to the start</a></p>`;
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof RetryLaterError) response.setHeader('Retry-After', exception.retryAfterSeconds);
    response.status(status).set(HTML_PAGE_HEADERS).send(renderPage('Sign-in failed', body));
  }
}
