import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequirePermission } from '@app/common/decorators.js';
import { Permission } from '@app/common/permission.js';
import { ListNotificationsQuery } from './dto/list-notifications.query.js';
import { MarkReadDto } from './dto/mark-read.dto.js';
import type { NotificationDto, NotificationPreferenceDto } from './dto/notification.dto.js';
import { UpdatePreferencesDto } from './dto/update-preferences.dto.js';
import { NotificationsService } from './notifications.service.js';

/** Spec "Notifications"; `read` and `preferences` from DESIGN section 4 and issue 25. */
@ApiTags('notifications')
@Controller('api/notifications')
@RequirePermission(Permission.ViewNotifications)
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Get()
  async list(
    @CurrentActor() actor: Actor,
    @Query() query: ListNotificationsQuery,
  ): Promise<{ notifications: NotificationDto[] }> {
    return { notifications: await this.notifications.list(actor, query) };
  }

  @Post('read')
  @HttpCode(200)
  async markRead(
    @CurrentActor() actor: Actor,
    @Body() body: MarkReadDto,
  ): Promise<{ ok: true; marked: number }> {
    return { ok: true, marked: await this.notifications.markRead(actor, body) };
  }

  @Get('preferences')
  async preferences(@CurrentActor() actor: Actor): Promise<{ preferences: NotificationPreferenceDto[] }> {
    return { preferences: await this.notifications.preferences(actor) };
  }

  @Patch('preferences')
  async updatePreferences(
    @CurrentActor() actor: Actor,
    @Body() body: UpdatePreferencesDto,
  ): Promise<{ preferences: NotificationPreferenceDto[] }> {
    return { preferences: await this.notifications.updatePreferences(actor, body) };
  }
}
