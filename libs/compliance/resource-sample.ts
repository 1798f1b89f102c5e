import type { EvidenceResource } from './compliance-types.js';

/** Most resources a finding lists; `total` counts the rest (docs/compliance.md). */
export const MAX_EVIDENCE_RESOURCES = 20;

/**
 * The resources a finding names: the first {@link MAX_EVIDENCE_RESOURCES} kept, every one counted,
 * so evidence stays small however many users an org has.
 */
export class ResourceSample {
  readonly items: EvidenceResource[] = [];
  total = 0;

  add(id: string, name: string | null, observed?: unknown): void {
    this.total++;
    if (this.items.length < MAX_EVIDENCE_RESOURCES)
      this.items.push(observed === undefined ? { id, name } : { id, name, observed });
  }
}
