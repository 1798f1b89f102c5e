import type { ProviderKind } from '@libs/providers/provider-kind.js';

/** The parts of a connection other features need to work with it (never the secret). */
export interface ConnectionRef {
  id: string;
  teamId: string;
  ownerUserId: string;
  provider: ProviderKind;
  orgUrl: string;
  orgName: string | null;
}
