import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { payloadLogFields, runWithLogFields } from '@app/common/log-context/log-context.js';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import type { Job, QueueName } from './job-payloads.js';
import { JobsService } from './jobs.service.js';
import { ON_JOB, type JobRegistration } from './on-job.decorator.js';

type Handler = (job: Job<QueueName>) => Promise<void>;

/**
 * Finds every `@OnJob` method of the app's providers once all modules are initialised, creates
 * each queue and starts its worker (JobsService.work: none in the `api` role). Each job runs
 * with its id, queue and payload ids on its log lines.
 * @throws Error at boot when two handlers declare the same queue
 */
@Injectable()
export class JobRegistry implements OnApplicationBootstrap {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly jobs: JobsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const seen = new Set<string>();
    for (const { registration, handler } of this.handlers()) {
      const { queue, ...options } = registration;
      if (seen.has(queue)) throw new Error(`Two @OnJob handlers for queue ${queue}`);
      seen.add(queue);
      await this.jobs.ensureQueue(queue, options);
      await this.jobs.work(queue, handler);
    }
  }

  private *handlers(): Generator<{ registration: JobRegistration; handler: Handler }> {
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const methods = instance as Record<string, Handler>;
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const registration = this.reflector.get<JobRegistration | undefined>(ON_JOB, methods[name]);
        if (!registration) continue;
        // Every line the job writes names it and the ids of its payload (docs/operations.md).
        const handler: Handler = (job) =>
          runWithLogFields({ job_id: job.id, queue: registration.queue, ...payloadLogFields(job.data) }, () =>
            methods[name].call(instance, job),
          );
        yield { registration, handler };
      }
    }
  }
}
