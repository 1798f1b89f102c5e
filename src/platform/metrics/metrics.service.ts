import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registeredProviderKinds } from '@libs/providers/registry.js';
import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { ProviderConnectorFactory } from '@app/connections/provider-connector.factory.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { Transaction } from '@app/platform/database/transaction.js';
import { MetricsRepository } from './metrics.repository.js';

/** Audit actions that end or start a backup or restore, and the counter each one adds to. */
const RUN_EVENTS: Record<
  string,
  { table: 'backups' | 'restores'; step: 'started' | 'completed' | 'partial' | 'failed' }
> = {
  'backup.started': { table: 'backups', step: 'started' },
  'backup.completed': { table: 'backups', step: 'completed' },
  'backup.failed': { table: 'backups', step: 'failed' },
  'restore.started': { table: 'restores', step: 'started' },
  'restore.completed': { table: 'restores', step: 'completed' },
  'restore.partial': { table: 'restores', step: 'partial' },
  'restore.failed': { table: 'restores', step: 'failed' },
};

/**
 * The process's Prometheus metrics (docs/operations.md). Run counters come from the
 * audit trail (every backup and restore step is recorded there, whichever job or sweep ends it),
 * counted in the process that records the event; queue depth and last backups are read from the
 * database at each scrape, so every replica reports the same values for them.
 */
@Injectable()
export class MetricsService implements OnModuleInit {
  private readonly logger = new Logger(MetricsService.name);
  /** This app's own registry: two apps in one process (tests) do not share counters. */
  readonly registry = new Registry();
  private readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route template and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its response finishing, seconds.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly runSteps = {
    backups: this.stepCounters('backups', ['started', 'completed', 'failed']),
    restores: this.stepCounters('restores', ['started', 'completed', 'partial', 'failed']),
  };
  private readonly backupDuration = new Histogram({
    name: 'idp_backup_duration_seconds',
    help: 'Wall time of each completed backup, from its start to its manifest, seconds.',
    labelNames: ['provider'] as const,
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200],
    registers: [this.registry],
  });
  private readonly backupObjects = new Histogram({
    name: 'idp_backup_objects',
    help: 'Objects (records over every resource type) captured by each completed backup.',
    labelNames: ['provider'] as const,
    buckets: [10, 100, 1_000, 10_000, 100_000, 1_000_000],
    registers: [this.registry],
  });
  private readonly backupBytes = new Histogram({
    name: 'idp_backup_size_bytes',
    help: 'Stored (compressed, encrypted) bytes of each completed backup.',
    labelNames: ['provider'] as const,
    buckets: [1e4, 1e5, 1e6, 1e7, 1e8, 1e9],
    registers: [this.registry],
  });

  private readonly queueDepth = new Gauge({
    name: 'idp_job_queue_depth',
    help: 'Jobs waiting for a worker (pg-boss created or retry), by queue.',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  private readonly queueOldest = new Gauge({
    name: 'idp_job_queue_oldest_age_seconds',
    help: 'How long the oldest due job of a queue has waited for a worker, seconds.',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });
  private readonly lastBackup = new Gauge({
    name: 'idp_backup_last_success_timestamp_seconds',
    help: 'Unix time of the last completed backup of each connection (the RPO alert reads it).',
    labelNames: ['connection_id', 'provider'] as const,
    registers: [this.registry],
  });

  private readonly databaseUp = new Gauge({
    name: 'idp_database_up',
    help: '1 when this scrape read the queue and last-backup gauges from the database, 0 when it could not (they keep their last values).',
    registers: [this.registry],
  });

  private readonly throttled = new Counter({
    name: 'idp_provider_throttled_total',
    help: "The provider's 429 answers, by provider and rate-limit bucket (METHOD /path/template).",
    labelNames: ['provider', 'bucket'] as const,
    registers: [this.registry],
  });
  private readonly throttleWait = new Counter({
    name: 'idp_provider_throttle_wait_seconds_total',
    help: "Seconds requests waited after the provider's 429s before being sent again, by provider and bucket.",
    labelNames: ['provider', 'bucket'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly connectors: ProviderConnectorFactory,
    private readonly audit: AuditService,
    private readonly rows: MetricsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * With METRICS_PORT set, starts the process metrics and the run counting; without it nothing
   * can read them, so the runs' transactions are spared the extra read.
   */
  onModuleInit(): void {
    if (this.config.METRICS_PORT === undefined) return;
    collectDefaultMetrics({ register: this.registry });
    this.audit.onRecorded((tx, event) => this.countRun(tx, event));
    this.connectors.onClosed((provider, stats) => {
      for (const [bucket, { responses, waitSeconds }] of Object.entries(stats.throttled)) {
        this.throttled.inc({ provider, bucket }, responses);
        this.throttleWait.inc({ provider, bucket }, waitSeconds);
      }
    });
  }

  /** Counts one answered HTTP request; `route` is the matched route template, or `unmatched`. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /**
   * The exposition text (Prometheus text format 0.0.4) and its content type. The gauges read
   * from the database are refreshed first; when it does not answer they keep the values of the
   * last read, `idp_database_up` says 0, and the rest is served as usual.
   */
  async render(): Promise<{ contentType: string; body: string }> {
    try {
      await this.readDatabaseGauges();
      this.databaseUp.set(1);
    } catch (error) {
      this.databaseUp.set(0);
      this.logger.warn(`Metrics read from the database skipped: ${String(error)}`);
    }
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * Adds a recorded backup or restore step to its counters (and a completed backup's duration,
   * objects and bytes to their histograms). It runs in the event's transaction, so it never
   * throws: a metric is not worth rolling back the change it counts.
   */
  private async countRun(tx: Transaction, event: RecordedAuditEvent): Promise<void> {
    const step = RUN_EVENTS[event.action];
    if (!step || !event.target.id) return;
    try {
      const facts = await this.rows.runFacts(tx, step.table, event.target.id);
      if (!facts) return;
      const labels = { provider: facts.provider };
      const counters: Record<string, Counter<'provider'>> = this.runSteps[step.table];
      counters[step.step]?.inc(labels);
      if (step.table === 'backups' && step.step === 'completed') {
        if (facts.durationSeconds !== null) this.backupDuration.observe(labels, facts.durationSeconds);
        this.backupObjects.observe(labels, facts.objects);
        this.backupBytes.observe(labels, facts.bytes);
      }
    } catch (error) {
      this.logger.warn(`Metrics of ${event.action} not counted: ${String(error)}`);
    }
  }

  /** Queue depths and last backups, read at each scrape (two queries). */
  private async readDatabaseGauges(): Promise<void> {
    const [queues, lastBackups] = await Promise.all([this.rows.queueDepths(), this.rows.lastBackups()]);
    this.queueDepth.reset();
    this.queueOldest.reset();
    this.lastBackup.reset();
    for (const queue of queues) {
      this.queueDepth.set({ queue: queue.queue }, queue.waiting);
      this.queueOldest.set({ queue: queue.queue }, queue.oldestDueSeconds);
    }
    for (const last of lastBackups)
      this.lastBackup.set(
        { connection_id: last.connectionId, provider: last.provider },
        last.completedAtSeconds,
      );
  }

  /**
   * One counter per step, each starting at 0 for every available provider: `increase()` sees a
   * series' first step only when the series existed before it (Prometheus docs, "rate").
   */
  private stepCounters<S extends string>(noun: string, steps: readonly S[]): Record<S, Counter<'provider'>> {
    return Object.fromEntries(
      steps.map((step) => {
        const counter = new Counter({
          name: `idp_${noun}_${step}_total`,
          help: `${noun[0]!.toUpperCase()}${noun.slice(1)} ${step}, by the connection's provider.`,
          labelNames: ['provider'] as const,
          registers: [this.registry],
        });
        for (const provider of registeredProviderKinds()) counter.inc({ provider }, 0);
        return [step, counter];
      }),
    ) as Record<S, Counter<'provider'>>;
  }
}
