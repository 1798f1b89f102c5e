import type { CrossOrgPreviewResult } from '@libs/restore/cross-org/cross-org-preview.js';
import type { CrossOrgMapping } from '@libs/restore/cross-org/mapping.js';

/** The part of a restore preview (RestorePreview `crossOrg`) only a restore into another org has. */
export interface CrossOrgPreview extends Omit<CrossOrgPreviewResult, 'rows' | 'prune'> {
  targetConnectionId: string;
  targetOrgUrl: string;
  /** the mapping previewed, as the request gave it */
  mapping: CrossOrgMapping;
}
