import type { Role } from '@app/common/permission.js';

/** Answer of a successful sign-in; the session itself travels in the `__Host-session` cookie. */
export interface SignedInDto {
  user_id: string;
  team_id: string;
  role: Role;
}
