import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ROLES, type Role } from '@app/common/permission.js';

/** Answer of a successful sign-in; the session itself travels in the `__Host-session` cookie. */
@ApiSchema({ name: 'SignedIn' })
export class SignedInDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ format: 'uuid' }) team_id!: string;
  @ApiProperty({ enum: ROLES, example: 'admin' }) role!: Role;
}
