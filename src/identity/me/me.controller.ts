import { Body, Controller, Get, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ACCOUNT_DELETION_HEADER } from '@app/identity/account/account-deletion.interceptor.js';
import type { Actor } from '@app/common/actor.js';
import { CurrentActor, RequireAuthentication } from '@app/common/decorators.js';
import { ApiErrorResponses } from '@app/common/openapi/api-error-responses.decorator.js';
import { MeDto, SwitchTeamDto } from './dto/me.dto.js';
import { type Credential, MeService } from './me.service.js';

/** The caller's own profile and current team (beyond the spec: DESIGN section 9, docs/api.md). */
@ApiTags('me')
@Controller('api/me')
@RequireAuthentication()
export class MeController {
  constructor(private readonly me: MeService) {}

  /** The signed-in user, their teams with role and permissions, the current team's plan and usage. */
  @Get()
  @ApiOperation({ summary: 'The caller, their teams and the current plan' })
  @ApiOkResponse({ type: MeDto })
  async get(
    @CurrentActor() actor: Actor,
    @Headers('authorization') authorization: string | undefined,
    @Headers('cookie') cookie: string | undefined,
  ): Promise<MeDto> {
    return this.me.describe(actor, credentialOf(authorization, cookie));
  }

  /** Makes another of the person's teams the session's current team; the answer is GET /api/me's. */
  @Post('team')
  @HttpCode(200)
  @ApiOperation({ summary: 'Switch the current team' })
  @ApiOkResponse({ type: MeDto })
  @ApiErrorResponses({
    400: '`teamId` is not a uuid.',
    403: 'A cookie-authenticated request from an origin that is neither the service nor an allowed console.',
    404: 'The caller is not a member of that team.',
    409: {
      codes: ['team_bound_to_token'],
      description: 'An access token acts in the team it was issued for; only a session switches.',
    },
  })
  async switchTeam(
    @CurrentActor() actor: Actor,
    @Body() body: SwitchTeamDto,
    @Headers('authorization') authorization: string | undefined,
    @Headers('cookie') cookie: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<MeDto> {
    const me = await this.me.switchTeam(actor, body.teamId, credentialOf(authorization, cookie));
    // X-Account-Deletion was set for the team the request arrived in; the answer is about the new one.
    const deletion = me.current_team.deletion_scheduled_for;
    if (deletion) response.setHeader(ACCOUNT_DELETION_HEADER, deletion);
    else response.removeHeader(ACCOUNT_DELETION_HEADER);
    return me;
  }
}

/** The session strategy is asked only when there is no `Authorization` header (SessionCookieStrategy). */
function credentialOf(authorization: string | undefined, cookie: string | undefined): Credential {
  return authorization === undefined ? { kind: 'session', cookieHeader: cookie } : { kind: 'access_token' };
}
