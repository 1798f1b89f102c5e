import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';

/** Most rewrites or pairs of one kind a mapping may hold. */
export const MAX_MAPPING_ENTRIES = 1000;

/** A DNS name (RFC 1123 labels), as e-mail domains are written. */
const DOMAIN =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** A URL host (RFC 3986 `host [ ":" port ]`, names and IPv4 addresses). */
const HOST =
  /^(?=.{1,253}(:|$))[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*(?::\d{1,5})?$/;

/** One e-mail or login domain rewritten: `ann@from` becomes `ann@to`. */
@ApiSchema({ name: 'DomainRewrite' })
export class DomainRewriteDto {
  @ApiProperty({ example: 'acme.com' })
  @IsString()
  @Matches(DOMAIN, { message: 'from must be a domain name such as acme.com' })
  from!: string;

  @ApiProperty({ example: 'sandbox.acme.com' })
  @IsString()
  @Matches(DOMAIN, { message: 'to must be a domain name such as sandbox.acme.com' })
  to!: string;
}

/** One URL host rewritten: `https://from/...` becomes `https://to/...`. */
@ApiSchema({ name: 'HostRewrite' })
export class HostRewriteDto {
  @ApiProperty({ example: 'app.acme.com', description: 'A host, with a port to match that port only.' })
  @IsString()
  @Matches(HOST, { message: 'from must be a host such as app.acme.com or app.acme.com:8443' })
  from!: string;

  @ApiProperty({ example: 'app.sandbox.acme.com' })
  @IsString()
  @Matches(HOST, { message: 'to must be a host such as app.sandbox.acme.com' })
  to!: string;
}

/** Added around the name of every group the restore writes. */
@ApiSchema({ name: 'GroupNameMapping' })
export class GroupNameMappingDto {
  @ApiPropertyOptional({ maxLength: 64, example: 'Sandbox - ' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  prefix?: string;

  @ApiPropertyOptional({ maxLength: 64, example: ' (EU)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  suffix?: string;
}

/** This source object is that target object (ids of the objects, not record ids). */
@ApiSchema({ name: 'ObjectPair' })
export class ObjectPairDto {
  @ApiProperty({ example: '00g1source0000000001', description: "The object's id in the backed-up org." })
  @IsString()
  @MaxLength(512)
  sourceId!: string;

  @ApiProperty({ example: '00g1target0000000001', description: "The object's id in the target org." })
  @IsString()
  @MaxLength(512)
  targetId!: string;
}

/**
 * Beyond the spec (docs/restore.md "Into another org"): what carries a backup into another org.
 * Every rewrite applies to every string value of every record written, before it is matched.
 */
@ApiSchema({ name: 'CrossOrgMapping' })
export class CrossOrgMappingDto implements CrossOrgMapping {
  @ApiPropertyOptional({ type: [DomainRewriteDto], maxItems: MAX_MAPPING_ENTRIES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MAPPING_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => DomainRewriteDto)
  domains?: DomainRewriteDto[];

  @ApiPropertyOptional({ type: [HostRewriteDto], maxItems: MAX_MAPPING_ENTRIES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MAPPING_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => HostRewriteDto)
  hosts?: HostRewriteDto[];

  @ApiPropertyOptional({ type: GroupNameMappingDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => GroupNameMappingDto)
  groupName?: GroupNameMappingDto;

  @ApiPropertyOptional({ type: [ObjectPairDto], maxItems: MAX_MAPPING_ENTRIES })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MAPPING_ENTRIES)
  @ValidateNested({ each: true })
  @Type(() => ObjectPairDto)
  pairs?: ObjectPairDto[];
}
