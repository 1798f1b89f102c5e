import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import type { Actor } from '@app/common/actor.js';
import { AccountDeletionService } from './account-deletion.service.js';

/** The header naming when the caller's team will be deleted (issue 27), on every authenticated response. */
export const ACCOUNT_DELETION_HEADER = 'X-Account-Deletion';

/**
 * Sets `X-Account-Deletion: <ISO 8601 instant>` on responses to members of a team whose deletion
 * is pending, so every client learns of it during the grace period (issue 27).
 */
@Injectable()
export class AccountDeletionInterceptor implements NestInterceptor {
  constructor(private readonly deletions: AccountDeletionService) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const actor = http.getRequest<{ actor?: Actor }>().actor;
    if (actor) {
      const scheduledFor = await this.deletions.pendingFor(actor.teamId);
      if (scheduledFor)
        http.getResponse<Response>().setHeader(ACCOUNT_DELETION_HEADER, scheduledFor.toISOString());
    }
    return next.handle();
  }
}
