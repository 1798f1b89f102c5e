import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { PageLimit, PageOffset } from '@app/common/query-params.decorator.js';
import { APPROVAL_STATUSES, type ApprovalStatus } from '@app/approvals/approval.entity.js';

/** Query of GET /api/approvals. */
export class ListApprovalsQuery {
  @ApiPropertyOptional({ enum: APPROVAL_STATUSES })
  @IsOptional()
  @IsIn(APPROVAL_STATUSES)
  status?: ApprovalStatus;

  @PageLimit(50, 500)
  limit: number = 50;

  @PageOffset()
  offset: number = 0;
}

/** Body of POST /api/approvals/{id}/reject. */
export class RejectApprovalDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 1000,
    description: 'Why: the requester and the audit trail see it.',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(1000)
  reason!: string;
}

/** Body of POST /api/approvals/{id}/approve (optional). */
export class ApproveApprovalDto {
  @ApiPropertyOptional({ maxLength: 1000, description: 'A note kept with the decision.' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}
