import type { PruneCandidate, RestorePreviewRow } from '@libs/restore/preview.js';
import type { CrossOrgPreview } from './cross-org/cross-org-preview.js';

/** What a restore cannot bring back as it was, per type (the runbook after a restore). */
export interface NotRestorable {
  resourceType: string;
  /** fields or sub-resources the provider never returns (snapshot manifest `notCaptured`) */
  items: string[];
  why: string;
}

/** Response of GET /api/restore and of POST /api/restore without `mode` (spec "Restore"), with our additions. */
export interface RestorePreview {
  preview: RestorePreviewRow[];
  sourceOrgUrl: string;
  /** when the live org was read (ISO 8601) */
  collectedAt: string;
  prune: PruneCandidate[];
  notRestorable: NotRestorable[];
  /** a restore into another org: the target and the preview object by object */
  crossOrg?: CrossOrgPreview;
}

/** Response of POST /api/restore with a `mode` (spec "Restore"). */
export interface RestoreStarted {
  restoreId: string;
  status: 'started';
}

/** A preview queued as a job (`Prefer: respond-async` on a large backup): where to poll it. */
export interface RestorePreviewQueued {
  previewId: string;
  status: 'pending';
}
