import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { FRAMEWORK_IDS, type FrameworkId } from '@libs/compliance/frameworks/framework-types.js';

/** Body of POST /api/compliance/check (spec "Compliance"; `backupId` beyond the spec). */
export class ComplianceCheckDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  connectionId!: string;

  @ApiProperty({ enum: FRAMEWORK_IDS })
  @IsIn(FRAMEWORK_IDS, { message: `framework must be one of: ${FRAMEWORK_IDS.join(', ')}` })
  framework!: FrameworkId;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A completed backup of the connection; default its latest.',
  })
  @IsOptional()
  @IsUUID()
  backupId?: string;
}
