import { Injectable } from '@nestjs/common';
import type { Actor } from '@app/common/actor.js';
import { ForbiddenError, NotFoundError } from '@app/common/errors.js';
import type { Role } from '@app/common/permission.js';
import { ClientsRepository } from './clients.repository.js';
import type { CreatedTeamClientDto, TeamClientDto } from './dto/team-client.dto.js';
import { assertMayHandleRoles } from './membership-rules.js';
import { toClientDto } from './teams.mapper.js';
import { TeamsService } from './teams.service.js';
import { byCaller } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';

/**
 * Integration clients of the caller's team (docs/security.md). Routes need
 * `manage team`; creating or revoking an `admin` or `super_admin` client needs `super_admin`.
 */
@Injectable()
export class TeamClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly teams: TeamsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Creates a client of the caller's team acting for the caller, as `cli client:create` does
   * (TeamsService.createClient), recorded as `team.client_created`. Only a person mints
   * credentials: an integration client cannot create another, which would outlive its own
   * revocation. Only the owner gives `admin` or `super_admin`.
   * @throws ForbiddenError (403); ValidationError (400) for a bad name.
   */
  async create(actor: Actor, input: { role: Role; name?: string }): Promise<CreatedTeamClientDto> {
    if (actor.clientId)
      throw new ForbiddenError('An integration client cannot create clients; a person does');
    assertMayHandleRoles(actor, input.role);
    const created = await this.teams.createClient(
      { teamId: actor.teamId, role: input.role, name: input.name, createdBy: actor.userId },
      byCaller(actor),
    );
    return {
      client_id: created.clientId,
      client_secret: created.clientSecret,
      name: created.name,
      role: created.role,
      created_by: created.createdBy,
      created_at: created.createdAt.toISOString(),
      revoked_at: null,
    };
  }

  /** Every client, revoked ones included, newest first; never a secret or its hash. */
  async list(actor: Actor): Promise<TeamClientDto[]> {
    return (await this.clients.listByTeam(actor.teamId)).map(toClientDto);
  }

  /**
   * Revokes a client: the token endpoint no longer knows it (`invalid_client`) and the API
   * refuses its unexpired tokens at once (401), since the bearer strategy resolves the client
   * on every request (TeamsService.resolveClientActor).
   * @throws NotFoundError (404) when unknown, already revoked or another team's; ForbiddenError (403).
   */
  async revoke(actor: Actor, clientId: string): Promise<void> {
    const client = await this.clients.findActiveInTeam(actor.teamId, clientId);
    if (!client) throw new NotFoundError('Client');
    assertMayHandleRoles(actor, client.role);
    const revoked = await this.audit.audited(
      (tx) => this.clients.revoke(actor.teamId, clientId, tx),
      (done) =>
        done
          ? {
              ...byCaller(actor),
              action: 'team.client_revoked',
              target: { type: 'client', id: clientId },
              outcome: 'success',
              details: { name: client.name, role: client.role },
            }
          : null,
    );
    if (!revoked) throw new NotFoundError('Client');
  }
}
