import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** Query of GET /api/backup/status. */
export class BackupStatusQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  backupId!: string;
}
