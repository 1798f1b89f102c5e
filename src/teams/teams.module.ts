import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClientsRepository } from './clients.repository.js';
import { MembersRepository } from './members.repository.js';
import { OAuthClientEntity } from './oauth-client.entity.js';
import { TeamMemberEntity } from './team-member.entity.js';
import { TeamEntity } from './team.entity.js';
import { SignInRepository } from './sign-in.repository.js';
import { TeamInvitationEntity } from './team-invitation.entity.js';
import { TeamsRepository } from './teams.repository.js';
import { TeamsService } from './teams.service.js';
import { UserEntity } from './user.entity.js';

/** Tenancy: teams, users, memberships and integration clients (DESIGN section 3). */
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
  providers: [TeamsService, TeamsRepository, ClientsRepository, SignInRepository, MembersRepository],
  exports: [TeamsService],
})
export class TeamsModule {}
