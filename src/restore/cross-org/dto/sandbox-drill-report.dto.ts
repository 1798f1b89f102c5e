import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  SandboxDrillFailure,
  SandboxDrillReport,
  SandboxDrillType,
} from '@app/restore/cross-org/sandbox-drill-report.js';

/** One type of a sandbox drill's comparison. */
@ApiSchema({ name: 'SandboxDrillType' })
export class SandboxDrillTypeDto implements SandboxDrillType {
  @ApiProperty() resourceType!: string;
  @ApiProperty({ type: 'integer', description: 'In the backup, still not in the sandbox.' }) missing!: number;
  @ApiProperty({
    type: 'integer',
    description:
      'In both, still different (users a restore leaves STAGED among them: docs/restore-fidelity.md).',
  })
  different!: number;
  @ApiProperty({ type: 'integer' }) same!: number;
  @ApiProperty({ type: 'integer', description: 'The sandbox’s own objects, left alone.' })
  sandboxOnly!: number;
}

/** A write the sandbox refused. */
@ApiSchema({ name: 'SandboxDrillFailure' })
export class SandboxDrillFailureDto implements SandboxDrillFailure {
  @ApiProperty() resourceType!: string;
  @ApiProperty() resourceId!: string;
  @ApiProperty({ description: 'What the sandbox answered.' }) error!: string;
}

/** Totals of the drill's restore into the sandbox. */
@ApiSchema({ name: 'SandboxDrillRestored' })
export class SandboxDrillRestoredDto {
  @ApiProperty({ type: 'integer' }) create!: number;
  @ApiProperty({ type: 'integer' }) update!: number;
  @ApiProperty({ type: 'integer' }) skip!: number;
  @ApiProperty({ type: 'integer' }) failed!: number;
}

/** What a sandbox drill found (docs/restore.md "Into another org"). */
@ApiSchema({ name: 'SandboxDrillReport' })
export class SandboxDrillReportDto implements SandboxDrillReport {
  @ApiProperty({ format: 'uuid' }) targetConnectionId!: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The sandbox’s backup after the restore.',
  })
  sandboxBackupId!: string | null;
  @ApiProperty({ description: 'No write refused, and nothing the API can create still missing.' })
  passed!: boolean;
  @ApiProperty({ type: SandboxDrillRestoredDto }) restored!: SandboxDrillRestoredDto;
  @ApiProperty({ type: [SandboxDrillFailureDto], description: 'At most 50.' })
  failures!: SandboxDrillFailureDto[];
  @ApiProperty({ type: [SandboxDrillTypeDto] }) types!: SandboxDrillTypeDto[];
  @ApiProperty({
    type: [String],
    description: 'Types the provider’s API cannot create: never counted missing.',
  })
  notWritable!: string[];
}
