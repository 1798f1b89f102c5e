import { Global, Module } from '@nestjs/common';
import { KEY_RING, keyRingProvider } from './key-ring.provider.js';
import { SecurityService } from './security.service.js';

/** Master keys and encryption of secrets at rest, for every feature. */
@Global()
@Module({ providers: [keyRingProvider, SecurityService], exports: [SecurityService, KEY_RING] })
export class SecurityModule {}
