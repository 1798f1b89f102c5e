import type { CredentialStore } from './auth/credential-store.js';
import type { OrgState } from './store/org-state.js';

/** What route handlers share: the org's state and credentials, and where the org is served. */
export interface OrgContext {
  state: OrgState;
  credentials: CredentialStore;
  /** `https://127.0.0.1:<port>`: the origin of every link the simulator generates. */
  baseUrl: string;
  /** Clock for timestamps, in epoch milliseconds. */
  now(): number;
}
