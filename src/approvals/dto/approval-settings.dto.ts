import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

/** Bounds of a request's lifetime, hours (docs/approvals.md). */
export const MIN_EXPIRY_HOURS = 1;
export const MAX_EXPIRY_HOURS = 168;

/** A team's two-person approval setting (docs/approvals.md). */
@ApiSchema({ name: 'ApprovalSettings' })
export class ApprovalSettingsDto {
  @ApiProperty({ example: true, description: 'On: every restore waits for a second member’s approval.' })
  enabled!: boolean;
  @ApiProperty({ description: 'When on, deleting a backup waits too.' }) backup_delete!: boolean;
  @ApiProperty({ description: 'When on, deleting a connection waits too.' }) connection_delete!: boolean;
  @ApiProperty({ description: 'When on, requesting the account’s deletion waits too.' })
  account_delete!: boolean;
  @ApiProperty({
    minimum: MIN_EXPIRY_HOURS,
    maximum: MAX_EXPIRY_HOURS,
    description: 'Hours a request waits.',
  })
  expiry_hours!: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) updated_at!: string | null;
}

/** GET /api/team/approval-settings, and PUT's answer when applied at once. */
@ApiSchema({ name: 'ApprovalSettingsEnvelope' })
export class ApprovalSettingsEnvelopeDto {
  @ApiProperty({ type: ApprovalSettingsDto }) settings!: ApprovalSettingsDto;
}

/** Body of PUT /api/team/approval-settings: what it leaves out keeps its value. */
export class UpdateApprovalSettingsDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() enabled?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() backup_delete?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() connection_delete?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() account_delete?: boolean;
  @ApiPropertyOptional({ minimum: MIN_EXPIRY_HOURS, maximum: MAX_EXPIRY_HOURS })
  @IsOptional()
  @IsInt()
  @Min(MIN_EXPIRY_HOURS)
  @Max(MAX_EXPIRY_HOURS)
  expiry_hours?: number;
}
