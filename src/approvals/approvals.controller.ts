import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { UuidParam } from '@app/common/uuid-param.decorator.js';
import { ApprovalsService } from './approvals.service.js';
import { ApprovalDetailDto, ApprovalEnvelopeDto, ApprovalListDto } from './dto/approval.dto.js';
import { ApproveApprovalDto, ListApprovalsQuery, RejectApprovalDto } from './dto/approval-queries.js';

/** The errors of a decision on a request (docs/approvals.md). */
const DECISION_ERRORS = {
  400: 'An invalid id or body, named.',
  403: 'The role lacks `restore`, the caller is an integration client, or it is the caller’s own request.',
  404: 'A request the team cannot see.',
  409: {
    codes: ['approval_not_pending', 'approval_expired'],
    description: 'Already approved, rejected or executed; or its time ran out (it can no longer run).',
  },
} as const;

/**
 * Beyond the spec: requests held for a second member's approval (docs/approvals.md). Anyone who
 * sees backups lists and reads them; members with `restore` other than the requester decide.
 */
@ApiTags('approvals')
@Controller('api/approvals')
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalsService) {}

  @Get()
  @ApiOperation({ summary: 'List requests awaiting or past approval' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ApprovalListDto })
  @ApiErrorResponses({ 400: 'An invalid status or page, named.' })
  list(@CurrentActor() actor: Actor, @Query() query: ListApprovalsQuery): Promise<ApprovalListDto> {
    return this.approvals.list(actor, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One request, with a pending restore’s dry run re-read now' })
  @RequirePermission(Permission.ViewBackups)
  @ApiOkResponse({ type: ApprovalDetailDto })
  @ApiErrorResponses({ 400: '`id` is not a uuid.', 404: 'A request the team cannot see.' })
  get(@CurrentActor() actor: Actor, @UuidParam('id') id: string): Promise<ApprovalDetailDto> {
    return this.approvals.get(actor, id);
  }

  @Post(':id/approve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Approve a request: it runs at once, as asked' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({
    type: ApprovalEnvelopeDto,
    description: '`executed` with its `result`, or `approved` with the `error` that stopped it.',
  })
  @ApiErrorResponses(DECISION_ERRORS)
  async approve(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Body() body: ApproveApprovalDto,
  ): Promise<ApprovalEnvelopeDto> {
    return { approval: await this.approvals.approve(actor, id, body.note) };
  }

  @Post(':id/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a request: it never runs' })
  @RequirePermission(Permission.Restore)
  @ApiOkResponse({ type: ApprovalEnvelopeDto })
  @ApiErrorResponses(DECISION_ERRORS)
  async reject(
    @CurrentActor() actor: Actor,
    @UuidParam('id') id: string,
    @Body() body: RejectApprovalDto,
  ): Promise<ApprovalEnvelopeDto> {
    return { approval: await this.approvals.reject(actor, id, body.reason) };
  }
}
