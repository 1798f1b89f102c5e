import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parse } from 'yaml';
import { configSchema } from '@app/platform/config/app-config.js';

/**
 * The deployment files an operator starts from (docs/operations.md) stay true to the service:
 * docker-compose.yml's replicas are configured with settings the service accepts, in the roles the operations
 * guide describes, with the files they mount present, and Prometheus scrapes the port the replicas
 * serve metrics on. No Docker engine runs here: the files are read, not started.
 */
interface ComposeService {
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { disable?: boolean };
  volumes?: string[];
  ports?: string[];
}

const root = process.cwd();
const compose = parse(readFileSync(resolve(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const prometheus = parse(readFileSync(resolve(root, 'deploy/prometheus.yml'), 'utf8')) as {
  rule_files: string[];
  scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
};

/** A replica's environment as the compose file sets it, `${VAR:?...}` filled as an operator would. */
function environmentOf(name: string): Record<string, string> {
  const masterKey = randomBytes(32).toString('base64');
  return Object.fromEntries(
    Object.entries(compose.services[name].environment ?? {}).map(([key, value]) => [
      key,
      String(value)
        .replace(/^\$\{MASTER_KEY:\?[^}]*\}$/, masterKey)
        .replace(/^\$\{(\w+):-([^}]*)\}$/, '$2'),
    ]),
  );
}

describe('deployment files', () => {
  it('runs one api and one worker replica, each with settings the service accepts', () => {
    for (const [name, role] of [
      ['api', 'api'],
      ['worker', 'worker'],
    ] as const) {
      const env = environmentOf(name);
      const config = configSchema.parse(env);
      expect(config).toMatchObject({
        ROLE: role,
        NODE_ENV: 'production',
        LOG_FORMAT: 'json',
        METRICS_HOST: '0.0.0.0',
      });
      expect(config.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(config.S3_ENDPOINT).toBe('http://minio:9000');
      // Every setting the file names is one the service reads (parsing drops unknown ones: a typo).
      for (const key of Object.keys(env)) expect(Object.keys(config)).toContain(key);
    }
  });

  it('migrates once: the worker starts after the api replica is healthy, and has no HTTP check', () => {
    expect(compose.services.worker.depends_on?.api).toEqual({ condition: 'service_healthy' });
    expect(compose.services.worker.healthcheck?.disable).toBe(true);
    expect(compose.services.api.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
  });

  it('publishes ports on loopback only', () => {
    const published = Object.values(compose.services).flatMap((service) => service.ports ?? []);
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^127\.0\.0\.1:/);
  });

  it('mounts files that exist, and Prometheus scrapes both replicas on their metrics port', () => {
    const mounts = Object.values(compose.services)
      .flatMap((service) => service.volumes ?? [])
      .filter((volume) => volume.startsWith('./'));
    expect(mounts.length).toBeGreaterThan(0);
    for (const mount of mounts) expect(existsSync(resolve(root, mount.split(':')[0]))).toBe(true);
    const port = environmentOf('api').METRICS_PORT;
    const targets = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((c) => c.targets));
    expect(targets.sort()).toEqual([`api:${port}`, `worker:${port}`]);
    expect(prometheus.rule_files).toEqual(['prometheus-alerts.yml']);
  });
});
