import { Module } from '@nestjs/common';
import { SessionsModule } from '@app/identity/sessions/sessions.module.js';
import { TeamsModule } from '@app/identity/teams/teams.module.js';
import { MeController } from './me.controller.js';
import { MeService } from './me.service.js';

/** The caller's own profile, teams and plan, and team switching (GET /api/me, POST /api/me/team). */
@Module({
  imports: [TeamsModule, SessionsModule],
  controllers: [MeController],
  providers: [MeService],
})
export class MeModule {}
