import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import { SignInOptionsDto } from './dto/sign-in-options.dto.js';
import { SignInService } from './sign-in.service.js';

/**
 * The ways to sign in, for a sign-in screen served from another origin (the admin console,
 * docs/console.md) to draw its buttons. Public and the same for everyone: it holds only what the
 * service's own sign-in page shows, so shared caches may keep it for five minutes
 * (RFC 9111 §5.2.2.9 `public`, §5.2.2.1 `max-age`).
 */
@ApiTags('auth')
@Public()
@Controller('api/sign-in')
export class SignInOptionsController {
  constructor(private readonly signIn: SignInService) {}

  @Get('options')
  @ApiOperation({ summary: 'The ways to sign in (e-mail code, and the identity provider if configured)' })
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOkResponse({ type: SignInOptionsDto })
  options(): SignInOptionsDto {
    const { enabled, label } = this.signIn.upstreamProvider;
    return { email_code: true, oidc: enabled ? { name: label } : null };
  }
}
