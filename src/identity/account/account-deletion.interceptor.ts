import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import type { Actor } from '@app/common/actor.js';

/**
 * The header naming when the caller's team will be deleted (docs/account.md), on every authenticated
 * response.
 */
export const ACCOUNT_DELETION_HEADER = 'X-Account-Deletion';

/**
 * Sets `X-Account-Deletion: <ISO 8601 instant>` on responses to members of a team whose deletion
 * is pending, so every client learns of it during the grace period (docs/account.md). The auth guard
 * read the pending deletion with the caller's role (`Actor.teamDeletionAt`), in the same query.
 */
@Injectable()
export class AccountDeletionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const scheduledFor = http.getRequest<{ actor?: Actor }>().actor?.teamDeletionAt;
    if (scheduledFor)
      http.getResponse<Response>().setHeader(ACCOUNT_DELETION_HEADER, scheduledFor.toISOString());
    return next.handle();
  }
}
