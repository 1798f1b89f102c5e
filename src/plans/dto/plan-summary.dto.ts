import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** A plan's limits as `plans` holds them (docs/plans.md); null is no limit. */
@ApiSchema({ name: 'PlanLimits' })
export class PlanLimitsDto {
  @ApiProperty({ type: Number, nullable: true, example: 3 }) connections!: number | null;
  @ApiProperty({ type: [String], nullable: true, example: ['okta'] }) provider_kinds!: string[] | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 5,
    description: 'Backups started by hand per UTC day.',
  })
  manual_backups_per_day!: number | null;
  @ApiProperty({ type: [String], nullable: true, example: ['daily', 'weekly'] })
  schedule_frequencies!: string[] | null;
  @ApiProperty({ type: [String], nullable: true, example: ['soc2'] }) compliance_frameworks!: string[] | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 1,
    description: 'Account exports per UTC calendar month.',
  })
  exports_per_month!: number | null;
  @ApiProperty({ type: Number, nullable: true, example: 5, description: 'Members plus open invitations.' })
  members!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 90,
    description:
      'Days backups are kept by default, and the most a connection\'s schedule may set as `retention_days` (docs/backups.md "Retention").',
  })
  retention_days!: number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    example: 90,
    description: "The most a connection's schedule may set as `retention_count`.",
  })
  retention_count!: number | null;
}

/** What the team uses of the limits, counted as the limit checks count it. */
@ApiSchema({ name: 'PlanUsage' })
export class PlanUsageDto {
  @ApiProperty({ example: 2 }) connections!: number;
  @ApiProperty({ example: 1, description: 'Since 00:00 UTC.' }) manual_backups_today!: number;
  @ApiProperty({ example: 0, description: 'Since the 1st, 00:00 UTC.' }) exports_this_month!: number;
  @ApiProperty({ example: 3, description: 'Members plus open invitations.' }) members!: number;
}

/** The team's plan, the limits in force and what is used of them. */
@ApiSchema({ name: 'PlanSummary' })
export class PlanSummaryDto {
  @ApiProperty({ example: 'team', description: 'free, trial, team or enterprise.' }) name!: string;
  @ApiProperty({ format: 'date-time', description: 'When the team moved to this plan.' }) since!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'A trial ends here; past it every limited action answers 402 `trial_ended`. Null: no end.',
  })
  trial_ends_at!: string | null;
  @ApiProperty({ type: PlanLimitsDto }) limits!: PlanLimitsDto;
  @ApiProperty({ type: PlanUsageDto }) usage!: PlanUsageDto;
}
