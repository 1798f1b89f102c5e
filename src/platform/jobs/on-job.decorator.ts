import { SetMetadata } from '@nestjs/common';
import type { Job, QueueName } from './job-payloads.js';
import type { QueueOptions } from './jobs.service.js';

/** Metadata key of an `@OnJob` handler. */
export const ON_JOB = 'jobs:on-job';

/** A queue and its options, as `@OnJob` declares them. */
export type JobRegistration<Q extends QueueName = QueueName> = { queue: Q } & QueueOptions;

/**
 * Declares the decorated method the worker of `registration.queue` (immich's `@OnJob`): at boot,
 * JobRegistry creates the queue with these options and, in the `worker` and `all` roles, runs the
 * method for each of its jobs, one at a time per replica. The method takes the queue's own payload
 * type (JobPayloads); a job whose handler throws is retried as the options say.
 */
export function OnJob<Q extends QueueName>(registration: JobRegistration<Q>) {
  return <M extends (job: Job<Q>) => Promise<void>>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void => {
    SetMetadata(ON_JOB, registration)(target, key, descriptor);
  };
}
