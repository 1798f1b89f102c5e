import type { Role } from '@app/common/permission.js';

/** A team as the service hands it out. */
export interface TeamDto {
  id: string;
  name: string;
  /** A plan name: free, trial, team or enterprise. */
  plan: string;
  /** ISO 8601. */
  created_at: string;
}

/** A user as the service hands it out. */
export interface UserDto {
  id: string;
  email: string;
}

/** A person as they see themselves (GET /api/me). */
export interface UserProfile extends UserDto {
  /** From the identity provider's `name` claim; null when it gave none (e-mail code sign-in). */
  name: string | null;
}

/** A team the user belongs to, with their role there and the team's pending deletion. */
export interface Membership {
  teamId: string;
  teamName: string;
  role: Role;
  /** When the team's deletion is scheduled for, or null. */
  deletionScheduledFor: Date | null;
}

/** Result of `TeamsService.createTeam`. */
export interface CreatedTeamDto {
  team: TeamDto;
  owner: UserDto;
}

/** Input of `TeamsService.createTeam`; `plan` defaults to the configured DEFAULT_PLAN. */
export interface CreateTeamInput {
  name: string;
  ownerEmail: string;
  plan?: string;
}

/**
 * Input of `TeamsService.createClient`; `name` defaults to "<role> integration", `createdBy`
 * (the member the client acts for) to the team's owner.
 */
export interface CreateClientInput {
  teamId: string;
  role: string;
  name?: string;
  createdBy?: string;
}

/** A new integration client; `clientSecret` exists only in this value, the database keeps its hash. */
export interface CreatedClientDto {
  clientId: string;
  clientSecret: string;
  teamId: string;
  role: Role;
  name: string;
  /** The member the client acts for. */
  createdBy: string;
  createdAt: Date;
}
