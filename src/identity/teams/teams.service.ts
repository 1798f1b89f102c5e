import { Inject, Injectable } from '@nestjs/common';
import { isEmail, isUUID } from 'class-validator';
import type { Actor } from '@app/common/actor.js';
import { NotFoundError, ValidationError } from '@app/common/errors.js';
import { plainName } from '@app/common/plain-name.js';
import { isRole, narrowerRole, type Role, ROLES } from '@app/common/permission.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import { type AuditBy, entryAbout } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import {
  clientSecretMatches,
  generateClientId,
  generateClientSecret,
  hashClientSecret,
} from './client-secret.js';
import { ClientsRepository } from './clients.repository.js';
import type {
  CreateClientInput,
  CreatedClientDto,
  CreatedTeamDto,
  CreateTeamInput,
  Membership,
  UserDto,
  UserProfile,
} from './dto/team.dto.js';
import { normalizeEmail } from './email-address.js';
import { MembersRepository } from './members.repository.js';
import { type SignInMembership, SignInRepository } from './sign-in.repository.js';
import { toTeamDto, toUserDto } from './teams.mapper.js';
import { TeamsRepository } from './teams.repository.js';

/** Longest team or client name accepted. */
const MAX_NAME_LENGTH = 200;

/**
 * Teams, their owners and their integration clients (DESIGN section 3). Used by the CLI to
 * provision, and by the authorization server and the auth guard to authenticate clients.
 */
@Injectable()
export class TeamsService {
  /** Compared against when a client is unknown, so a miss costs what a hit costs. */
  private readonly decoyHash = hashClientSecret(generateClientSecret());

  constructor(
    private readonly teams: TeamsRepository,
    private readonly clients: ClientsRepository,
    private readonly signIns: SignInRepository,
    private readonly members: MembersRepository,
    private readonly audit: AuditService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Creates a team and its owner (role `super_admin`) in one transaction. The owner is the
   * existing user with that e-mail (case-insensitive) or a new one.
   * @throws ValidationError (400) for an empty name, a malformed e-mail or an unknown plan.
   */
  async createTeam({
    name,
    ownerEmail,
    plan = this.config.DEFAULT_PLAN,
  }: CreateTeamInput): Promise<CreatedTeamDto> {
    const teamName = requireName(name, 'Team name');
    const email = ownerEmail.trim();
    if (!isEmail(email)) throw new ValidationError('Owner e-mail is not a valid address');
    const created = await this.teams.createTeamWithOwner({ name: teamName, plan, ownerEmail: email });
    if (!created) throw new ValidationError(`Unknown plan "${plan}"`);
    return { team: toTeamDto(created.team), owner: toUserDto(created.owner) };
  }

  /**
   * Who a person who has just proved control of `email` (through the identity provider or an
   * e-mail code) signs in as. The address is compared trimmed and case-insensitively (NFC,
   * lower case; see email-address.ts). In one transaction, serialized per address:
   * - every pending invitation of the address that has not expired is accepted and consumed:
   *   the user is created on first sign-in and joins each inviting team with the invited role
   *   (a team they already belong to keeps their current role); expired invitations are ignored;
   * - the answer is the user's membership joined most recently (ties: smallest team id), so a
   *   sign-in that accepted an invitation lands in the inviting team;
   * - an address with no membership gets null and nothing is written, unless SELF_SERVICE_TEAMS
   *   is on (default off): then a team named "Team of <address>" on DEFAULT_PLAN is created
   *   with this user (reused if the row exists, e.g. after removal from every team) as its
   *   `super_admin`.
   * Source: docs/security.md "Team management" ("A first sign-in of an invited address joins its team; a
   * sign-in of an unknown address creates nothing unless self-service team creation is enabled").
   * @returns null when the address may not sign in; never throws for an unknown address.
   */
  resolveSignIn(email: string): Promise<SignInMembership | null> {
    const address = normalizeEmail(email);
    const selfService = this.config.SELF_SERVICE_TEAMS
      ? { name: `Team of ${address}`, plan: this.config.DEFAULT_PLAN }
      : null;
    return this.signIns.resolve(address, selfService);
  }

  /** The team's name, for what the service writes about it (report covers). @throws NotFoundError */
  async getName(teamId: string): Promise<string> {
    const team = isUUID(teamId) ? await this.teams.findTeam(teamId) : null;
    if (!team) throw new NotFoundError('Team');
    return team.name;
  }

  /** @throws NotFoundError (404 `not_found`) when the team does not exist. */
  async getOwner(teamId: string): Promise<UserDto> {
    const owner = isUUID(teamId) ? await this.teams.findOwner(teamId) : null;
    if (!owner) throw new NotFoundError('Team');
    return toUserDto(owner);
  }

  /**
   * Creates an integration client of the team, acting with `role` on behalf of `createdBy` (a
   * member; by default the team owner), never beyond that member's current role (see
   * `resolveClientActor`). Only the secret's hash is stored; the returned `clientSecret` is the
   * one and only copy. The one way clients are made: `cli client:create` and
   * `POST /api/team/clients` (TeamClientsService, which checks the caller's rights first).
   * @param by who asks, when the creation is to be audited (`team.client_created`, in the same
   *   transaction); the CLI's provisioning is not.
   * @throws ValidationError (400) for an unknown role or a bad name; NotFoundError (404) when the
   *   team does not exist or `createdBy` is not one of its members.
   */
  async createClient(
    { teamId, role, name, createdBy }: CreateClientInput,
    by?: AuditBy,
  ): Promise<CreatedClientDto> {
    if (!isRole(role)) throw new ValidationError(`Unknown role "${role}"; one of ${ROLES.join(', ')}`);
    const clientName = name === undefined ? `${role} integration` : requireName(name, 'Client name');
    const creatorId = createdBy === undefined ? (await this.getOwner(teamId)).id : createdBy;
    if (createdBy !== undefined && !(await this.resolveMemberActor(createdBy, teamId))) {
      throw new NotFoundError('Member');
    }
    const clientId = generateClientId();
    const clientSecret = generateClientSecret();
    const row = {
      clientId,
      teamId,
      role,
      name: clientName,
      secretHash: hashClientSecret(clientSecret),
      createdBy: creatorId,
    };
    const stored = await this.audit.audited(
      (tx) => this.clients.insert(row, tx),
      (client) =>
        by
          ? entryAbout(
              teamId,
              { type: 'client', id: clientId },
              'team.client_created',
              'success',
              { name: client.name, role: client.role },
              by,
            )
          : null,
    );
    return {
      clientId,
      clientSecret,
      teamId,
      role,
      name: stored.name,
      createdBy: stored.createdBy,
      createdAt: stored.createdAt,
    };
  }

  /** The person, with their name when the identity provider gave one. @throws NotFoundError */
  async getProfile(userId: string): Promise<UserProfile> {
    const user = isUUID(userId) ? await this.teams.findUser(userId) : null;
    if (!user) throw new NotFoundError('User');
    return { id: user.id, email: user.email, name: user.name };
  }

  /** Every team the user belongs to, with their role there and any pending deletion, by team name. */
  membershipsOf(userId: string): Promise<Membership[]> {
    return this.members.listTeamsOfUser(userId);
  }

  /** The active client's name and own role (before narrowing to its member's). @throws NotFoundError */
  async getClient(clientId: string): Promise<{ clientId: string; name: string; role: Role }> {
    const client = await this.clients.findActive(clientId);
    if (!client) throw new NotFoundError('Client');
    return { clientId: client.clientId, name: client.name, role: client.role };
  }

  /** True when the client exists, is not revoked and `secret` is its secret (constant-time comparison). */
  async verifyClientSecret(clientId: string, secret: string): Promise<boolean> {
    const client = await this.clients.findActive(clientId);
    const matches = clientSecretMatches(secret, client?.secretHash ?? this.decoyHash);
    return client !== null && matches;
  }

  /**
   * The actor a signed-in user acts as in a team, with their current role (read on every request,
   * so a role change or a removal takes effect at once). No `clientId`.
   * @returns null when the membership (or the user or team) does not exist, or an id is not a uuid.
   */
  async resolveMemberActor(userId: string, teamId: string): Promise<Actor | null> {
    if (!isUUID(userId) || !isUUID(teamId)) return null;
    const member = await this.members.findRoleAndTeamDeletion(teamId, userId);
    return member && { teamId, userId, ...member };
  }

  /**
   * The actor an integration client acts as: its team, on behalf of the member who created it,
   * with the permissions both the client's role and that member's current role grant
   * (`narrowerRole`): a client never outranks its member, so demoting the member (or
   * transferring ownership away from them) narrows their clients at once.
   * @returns null when the client is unknown or revoked, or its member has left the team.
   */
  async resolveClientActor(clientId: string): Promise<Actor | null> {
    const client = await this.clients.findActiveWithCreatorRole(clientId);
    if (!client) return null;
    return {
      teamId: client.teamId,
      userId: client.createdBy,
      role: narrowerRole(client.role, client.creatorRole),
      clientId: client.clientId,
      teamDeletionAt: client.teamDeletionAt,
    };
  }
}

/** `value` as a plain one-line name (plainName). @throws ValidationError when empty or too long */
function requireName(value: string, what: string): string {
  const name = plainName(value);
  if (!name || name.length > MAX_NAME_LENGTH) {
    throw new ValidationError(`${what} must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  return name;
}
