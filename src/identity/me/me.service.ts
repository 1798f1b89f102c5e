import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ConflictError, NotFoundError } from '@app/common/errors.js';
import { type Permission, ROLE_PERMISSIONS, type Role } from '@app/common/permission.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { SessionsService } from '@app/identity/sessions/sessions.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import type { MeDto, MeTeamDto } from './dto/me.dto.js';

/**
 * What the request authenticated with: the session cookie (with the request's `Cookie` header,
 * to re-bind the session) or an `Authorization: Bearer` access token.
 */
export type Credential = { kind: 'session'; cookieHeader: string | undefined } | { kind: 'access_token' };

/**
 * The caller's own view (DESIGN section 9, the console's starting point): who they are, every
 * team they belong to with the role held and the permissions it grants (ROLE_PERMISSIONS), the
 * current team with its plan, limits and usage, and pending deletions; and switching the
 * session's team.
 */
@Injectable()
export class MeService {
  constructor(
    private readonly teams: TeamsService,
    private readonly plans: PlanLimitsService,
    private readonly sessions: SessionsService,
  ) {}

  /**
   * The caller's profile. A person (session or access token) sees every membership, the current
   * one being the actor's team; an integration client sees its own team only, with the role it
   * acts with (its own narrowed to its member's current one), and no `user`.
   */
  async describe(actor: Actor, credential: Credential): Promise<MeDto> {
    const current = (teamId: string) => teamId === actor.teamId;
    const plan = await this.plans.summary(actor.teamId);
    if (actor.clientId) {
      const [client, teamName] = await Promise.all([
        this.teams.getClient(actor.clientId),
        this.teams.getName(actor.teamId),
      ]);
      const team = teamView(actor.teamId, teamName, actor.role, true, actor.teamDeletionAt ?? null);
      return {
        authenticated_by: 'client',
        user: null,
        client: {
          client_id: client.clientId,
          name: client.name,
          role: client.role,
          acts_for_user_id: actor.userId,
        },
        teams: [team],
        current_team: { ...team, plan },
      };
    }
    const [user, memberships] = await Promise.all([
      this.teams.getProfile(actor.userId),
      this.teams.membershipsOf(actor.userId),
    ]);
    const teams = memberships.map((m) =>
      teamView(m.teamId, m.teamName, m.role, current(m.teamId), m.deletionScheduledFor),
    );
    const currentTeam = teams.find((team) => team.current);
    // The auth guard resolved this membership moments ago; a removal in between ends the call.
    if (!currentTeam) throw new NotFoundError('Team');
    return {
      authenticated_by: credential.kind,
      user,
      client: null,
      teams,
      current_team: { ...currentTeam, plan },
    };
  }

  /**
   * Re-binds the caller's session to another team they belong to, without signing in again,
   * and answers their profile there. A team they are not in is a 404 (as one that does not exist).
   * @throws ConflictError (409 `team_bound_to_token`) for an access token: its team is part of
   *   the token; NotFoundError (404) for a team not theirs or a session that just ended.
   */
  async switchTeam(actor: Actor, teamId: string, credential: Credential): Promise<MeDto> {
    if (credential.kind !== 'session' || actor.clientId) {
      throw new ConflictError(
        'team_bound_to_token',
        'An access token acts in the team it was issued for; get a token for the other team',
      );
    }
    const member = await this.teams.resolveMemberActor(actor.userId, teamId);
    if (!member) throw new NotFoundError('Team');
    if (!(await this.sessions.rebindTeam(credential.cookieHeader, teamId)))
      throw new NotFoundError('Session');
    return this.describe({ ...member, origin: actor.origin }, credential);
  }
}

function teamView(
  id: string,
  name: string,
  role: Role,
  current: boolean,
  deletionScheduledFor: Date | null,
): MeTeamDto {
  return {
    id,
    name,
    role,
    permissions: [...ROLE_PERMISSIONS[role]] as Permission[],
    current,
    deletion_scheduled_for: deletionScheduledFor?.toISOString() ?? null,
  };
}
