import type PgBoss from 'pg-boss';

/**
 * The payload of each queue's jobs, by queue name. A feature declares its own queues where it
 * works them, by declaration merging:
 * `declare module '@app/platform/jobs/job-payloads.js' { interface JobPayloads { 'backup-run': { backupId: string } } }`,
 * so `JobsService.send` and `@OnJob` handlers are typed without this file naming any feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface JobPayloads {}

/** A queue some feature declared in JobPayloads. */
export type QueueName = keyof JobPayloads & string;

/** One job of queue `Q` as its handler receives it: payload, id, retry count and limit. */
export type Job<Q extends QueueName> = PgBoss.JobWithMetadata<JobPayloads[Q]>;
