/** What one write of a restore did (DESIGN section 4 "item result"). */
export type RestoreAction = 'create' | 'update' | 'delete' | 'skip';

/** What a restore did to one resource type: writes by action, and how many failed. */
export interface RestoreTypeSummary {
  create: number;
  update: number;
  delete: number;
  skip: number;
  failed: number;
  /** what came back differently or was left alone, once each (Okta manages the Everyone group...) */
  notes: string[];
}
