import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A team's plan and its limits (NULL: no limit), as `plans` holds them (docs/plans.md). */
export interface TeamPlan {
  plan: string;
  planSince: Date;
  maxConnections: number | null;
  providerKinds: string[] | null;
  maxBackupsPerDay: number | null;
  scheduleFrequencies: string[] | null;
  complianceFrameworks: string[] | null;
  maxExportsPerMonth: number | null;
  maxMembers: number | null;
  trialDays: number | null;
  /** Days backups are kept by default, and the most a connection may set. */
  retentionDays: number | null;
  /** The most newest completed backups a connection may keep beyond `retentionDays`. */
  maxRetentionCount: number | null;
}

/** The `plans` table, a team's plan, and the counts its limits are checked against. */
@Injectable()
export class PlansRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The team's plan, or null for an unknown team. */
  async planOf(teamId: string): Promise<TeamPlan | null> {
    const rows = (await this.dataSource.query(
      `SELECT p.name AS plan, t.plan_since AS "planSince", p.max_connections AS "maxConnections",
         p.provider_kinds AS "providerKinds", p.max_manual_backups_per_day AS "maxBackupsPerDay",
         p.schedule_frequencies AS "scheduleFrequencies", p.compliance_frameworks AS "complianceFrameworks",
         p.max_exports_per_month AS "maxExportsPerMonth", p.max_members AS "maxMembers", p.trial_days AS "trialDays",
         p.retention_days AS "retentionDays", p.max_retention_count AS "maxRetentionCount"
       FROM teams t JOIN plans p ON p.name = t.plan WHERE t.id = $1`,
      [teamId],
    )) as TeamPlan[];
    return rows[0] ?? null;
  }

  /** The team's live connections. */
  countConnections(teamId: string): Promise<number> {
    return this.count(
      'SELECT count(*)::int AS n FROM connections WHERE team_id = $1 AND deleted_at IS NULL',
      [teamId],
    );
  }

  /** Backups the team's members started by hand since `since` (scheduled ones are the schedule's limit). */
  countManualBackupsSince(teamId: string, since: Date): Promise<number> {
    return this.count(
      `SELECT count(*)::int AS n FROM backups WHERE team_id = $1 AND triggered_by = 'manual' AND started_at >= $2`,
      [teamId, since],
    );
  }

  /** Successful account exports since `since`. */
  countExportsSince(teamId: string, since: Date): Promise<number> {
    return this.count(
      'SELECT count(*)::int AS n FROM account_exports WHERE team_id = $1 AND completed_at >= $2',
      [teamId, since],
    );
  }

  /** Members, and invitations still open (each may become one). */
  countSeats(teamId: string): Promise<number> {
    return this.count(
      `SELECT (SELECT count(*) FROM team_members WHERE team_id = $1)
            + (SELECT count(*) FROM team_invitations WHERE team_id = $1 AND accepted_at IS NULL AND expires_at > now())
       AS n`,
      [teamId],
    ).then(Number);
  }

  /** Moves the team to `plan` from now. @returns false when the team or the plan is unknown */
  async setPlan(teamId: string, plan: string): Promise<boolean> {
    const [, updated] = (await this.dataSource.query(
      `UPDATE teams SET plan = $2, plan_since = now() WHERE id = $1 AND EXISTS (SELECT 1 FROM plans WHERE name = $2)`,
      [teamId, plan],
    )) as [unknown, number];
    return updated === 1;
  }

  private async count(sql: string, values: unknown[]): Promise<number> {
    const [{ n }] = (await this.dataSource.query(sql, values)) as Array<{ n: number }>;
    return n;
  }
}
