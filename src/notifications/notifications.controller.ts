import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { Permission } from '@app/common/permission.js';
import { ListNotificationsQuery } from './dto/list-notifications.query.js';
import { MarkReadDto } from './dto/mark-read.dto.js';
import { MarkedReadDto, NotificationListDto, NotificationPreferencesDto } from './dto/notification.dto.js';
import { UpdatePreferencesDto } from './dto/update-preferences.dto.js';
import { NotificationsService } from './notifications.service.js';

/** Spec "Notifications"; `read` and `preferences` from DESIGN section 4 and docs/notifications.md. */
@ApiTags('notifications')
@Controller('api/notifications')
@RequirePermission(Permission.ViewNotifications)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  @ApiOperation({ summary: 'List notifications' })
  @ApiOkResponse({ type: NotificationListDto })
  @ApiErrorResponses({ 400: 'An invalid `limit` or `unreadOnly`, named.' })
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: ListNotificationsQuery,
  ): Promise<NotificationListDto> {
    return { notifications: await this.notifications.list(actor, query) };
  }

  @Post('read')
  @ApiOperation({ summary: 'Mark notifications read' })
  @HttpCode(200)
  @ApiOkResponse({ type: MarkedReadDto })
  @ApiErrorResponses({ 400: 'Neither or both of `ids` and `all`, or an id that is not a uuid.' })
  async markRead(@CurrentActor() actor: Actor, @Body() body: MarkReadDto): Promise<MarkedReadDto> {
    return { ok: true, marked: await this.notifications.markRead(actor, body) };
  }

  @Get('preferences')
  @ApiOperation({ summary: 'Get notification preferences' })
  @ApiOkResponse({ type: NotificationPreferencesDto })
  async preferences(@CurrentActor() actor: Actor): Promise<NotificationPreferencesDto> {
    return { preferences: await this.notifications.preferences(actor) };
  }

  @Patch('preferences')
  @ApiOperation({ summary: 'Update notification preferences' })
  @ApiOkResponse({ type: NotificationPreferencesDto })
  @ApiErrorResponses({ 400: 'An unknown type or an invalid delivery, named.' })
  async updatePreferences(
    @CurrentActor() actor: Actor,
    @Body() body: UpdatePreferencesDto,
  ): Promise<NotificationPreferencesDto> {
    return { preferences: await this.notifications.updatePreferences(actor, body) };
  }
}
