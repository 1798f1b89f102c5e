import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsOptional,
  ValidateNested,
} from 'class-validator';
import { NOTIFICATION_TYPES, type NotificationType } from '@app/notifications/notification-types.js';

/** One type's change: what is left out keeps its current value. */
export class PreferenceChangeDto {
  @ApiProperty({ enum: NOTIFICATION_TYPES })
  @IsIn(NOTIFICATION_TYPES)
  type!: NotificationType;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  in_app?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  email?: boolean;
}

/** Body of PATCH /api/notifications/preferences (docs/notifications.md). */
export class UpdatePreferencesDto {
  @ApiProperty({ type: [PreferenceChangeDto], minItems: 1, maxItems: NOTIFICATION_TYPES.length })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(NOTIFICATION_TYPES.length)
  @ValidateNested({ each: true })
  @Type(() => PreferenceChangeDto)
  preferences!: PreferenceChangeDto[];
}
