/** What the drill did and found. */
export interface DrillResult {
  /** the restore's final status, or `skipped` when the org holds nothing the drill can damage */
  status: string;
  seconds: number;
  /** writes by action, over every type */
  writes: { create: number; update: number; delete: number; failed: number };
  /** every damaged object is back as backed up (a deleted group with every member) */
  restored: boolean;
  /** the object deleted, or null when the provider let the drill delete none */
  deleted: { type: string; id: string; name: string | null } | null;
  /** the user whose profile was changed, or null when Okta let the drill change none */
  changed_user: { id: string; login: string | null } | null;
  /** why the drill skipped, or what did not come back */
  reason?: string;
}
