import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** Body of PATCH /api/connections/[id] (spec "Connections"): every field optional. */
export class UpdateConnectionDto {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 200, description: 'null clears the name.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  org_name?: string | null;

  @ApiPropertyOptional({ minLength: 1, maxLength: 256 })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  client_id?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    minLength: 1,
    maxLength: 1024,
    description: 'Write-only: never returned.',
  })
  @IsOptional()
  @IsString()
  @Length(1, 1024)
  client_secret?: string;
}
