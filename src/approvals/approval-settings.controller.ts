import { Body, Controller, Get, Put, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { answerHeld, type HeldForApproval } from './approval-gate.js';
import { ApprovalSettingsService } from './approval-settings.service.js';
import { ApprovalHeldDto } from './dto/approval.dto.js';
import { ApprovalSettingsEnvelopeDto, UpdateApprovalSettingsDto } from './dto/approval-settings.dto.js';

/** Beyond the spec: the team's two-person approval setting (docs/approvals.md), team management. */
@ApiTags('team')
@Controller('api/team/approval-settings')
@RequirePermission(Permission.ManageTeam)
export class ApprovalSettingsController {
  constructor(private readonly settings: ApprovalSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'Read the two-person approval setting' })
  @ApiOkResponse({ type: ApprovalSettingsEnvelopeDto })
  async get(@CurrentActor() actor: Actor): Promise<ApprovalSettingsEnvelopeDto> {
    return { settings: await this.settings.get(actor) };
  }

  @Put()
  @ApiOperation({ summary: 'Change the two-person approval setting' })
  @ApiOkResponse({ type: ApprovalSettingsEnvelopeDto, description: 'Applied.' })
  @ApiAcceptedResponse({
    type: ApprovalHeldDto,
    description:
      'While it is on, turning it or one of its switches off waits for a second member’s approval.',
  })
  @ApiErrorResponses({ 400: 'An invalid field, or `expiry_hours` outside 1 to 168, named.' })
  async update(
    @CurrentActor() actor: Actor,
    @Body() body: UpdateApprovalSettingsDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<ApprovalSettingsEnvelopeDto | HeldForApproval> {
    return answerHeld(response, await this.settings.update(actor, body));
  }
}
