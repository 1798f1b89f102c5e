import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@app/common/decorators.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import {
  mcpResourceMetadata,
  protectedResourceMetadata,
  type ProtectedResourceMetadata,
} from './protected-resource.js';

/**
 * RFC 9728 protected-resource metadata, public. The path-suffixed location is the one RFC 9728
 * §3.1 derives from the resource `{base_url}/api/`; the bare location serves clients that only
 * probe the origin. The MCP endpoint, a resource of its own, has its own.
 */
@ApiExcludeController()
@Public()
@Controller('.well-known')
export class ProtectedResourceController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get(['oauth-protected-resource/api', 'oauth-protected-resource'])
  metadata(): ProtectedResourceMetadata {
    return protectedResourceMetadata(this.config);
  }

  /** The MCP endpoint's own metadata (RFC 9728 §3.1 for the resource `{base_url}/mcp`). */
  @Get('oauth-protected-resource/mcp')
  mcpMetadata(): ProtectedResourceMetadata {
    return mcpResourceMetadata(this.config);
  }
}
