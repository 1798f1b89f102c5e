import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsRepository } from './clients.repository.js';
import { MembersRepository } from './members.repository.js';
import { OAuthClientEntity } from './oauth-client.entity.js';
import { TeamMemberEntity } from './team-member.entity.js';
import { TeamEntity } from './team.entity.js';
import { SignInRepository } from './sign-in.repository.js';
import { TeamInvitationEntity } from './team-invitation.entity.js';
import { InvitationsRepository } from './invitations.repository.js';
import { TeamClientsController } from './team-clients.controller.js';
import { TeamClientsService } from './team-clients.service.js';
import { TeamInvitationsController } from './team-invitations.controller.js';
import { TeamInvitationsService } from './team-invitations.service.js';
import { TeamMembersController } from './team-members.controller.js';
import { TeamMembersService } from './team-members.service.js';
import { TeamOwnershipController } from './team-ownership.controller.js';
import { TeamsRepository } from './teams.repository.js';
import { TeamsService } from './teams.service.js';
import { UserEntity } from './user.entity.js';

/**
 * Tenancy: teams, users, memberships, invitations and integration clients (DESIGN section 3),
 * and the team-management routes under /api/team (docs/security.md).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      TeamEntity,
      UserEntity,
      TeamMemberEntity,
      OAuthClientEntity,
      TeamInvitationEntity,
    ]),
  ],
  controllers: [
    TeamMembersController,
    TeamOwnershipController,
    TeamInvitationsController,
    TeamClientsController,
  ],
  providers: [
    TeamsService,
    TeamMembersService,
    TeamInvitationsService,
    TeamClientsService,
    TeamsRepository,
    ClientsRepository,
    SignInRepository,
    MembersRepository,
    InvitationsRepository,
  ],
  exports: [TeamsService],
})
export class TeamsModule {}
