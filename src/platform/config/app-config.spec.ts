import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('runs on embedded defaults when nothing is set', () => {
    const sut = loadConfig({});
    expect(sut.ROLE).toBe('all');
    expect(sut.DATABASE_URL).toBeUndefined();
    expect(sut.S3_BUCKET).toBeUndefined();
    expect(sut.BASE_URL).toBe('http://localhost:3000');
    expect(sut.API_RESOURCE).toBe('http://localhost:3000/api/');
  });

  it('derives the API resource from BASE_URL without a trailing slash', () => {
    const sut = loadConfig({ BASE_URL: 'https://backup.example.com/' });
    expect(sut.API_RESOURCE).toBe('https://backup.example.com/api/');
  });

  it('names every bad setting', () => {
    expect(() => loadConfig({ ROLE: 'both', PORT: 'x' })).toThrow(/ROLE[\s\S]*PORT|PORT[\s\S]*ROLE/);
  });

  it('wants both S3 keys or neither', () => {
    expect(() => loadConfig({ S3_BUCKET: 'snapshots', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(
      /S3_ACCESS_KEY_ID: set both/,
    );
    expect(loadConfig({ S3_BUCKET: 'snapshots' }).S3_BUCKET).toBe('snapshots');
  });

  it('keeps a reserve while others are idle no larger than the headroom', () => {
    expect(loadConfig({}).PROVIDER_RATE_LIMIT_IDLE_HEADROOM).toBeUndefined();
    expect(loadConfig({ PROVIDER_RATE_LIMIT_IDLE_HEADROOM: '0.05' }).PROVIDER_RATE_LIMIT_IDLE_HEADROOM).toBe(
      0.05,
    );
    expect(() => loadConfig({ PROVIDER_RATE_LIMIT_IDLE_HEADROOM: '0.3' })).toThrow(
      /PROVIDER_RATE_LIMIT_IDLE_HEADROOM: must not exceed PROVIDER_RATE_LIMIT_HEADROOM/,
    );
  });

  it('splits the extra allowed provider hosts', () => {
    const sut = loadConfig({ PROVIDER_ALLOWED_HOSTS: '127.0.0.1, *.example.org' });
    expect(sut.PROVIDER_ALLOWED_HOSTS).toEqual(['127.0.0.1', '*.example.org']);
  });

  it('allows the local console origins outside production and none in production unless told', () => {
    expect(loadConfig({}).CONSOLE_ORIGINS).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
    expect(loadConfig({ NODE_ENV: 'production' }).CONSOLE_ORIGINS).toEqual([]);
    expect(loadConfig({ CONSOLE_ORIGINS: '' }).CONSOLE_ORIGINS).toEqual([]);
    const sut = loadConfig({
      NODE_ENV: 'production',
      CONSOLE_ORIGINS: 'https://console.example.com, http://localhost:8080',
    });
    expect(sut.CONSOLE_ORIGINS).toEqual(['https://console.example.com', 'http://localhost:8080']);
  });

  it('refuses a console origin that is not exactly an origin', () => {
    for (const bad of [
      'https://console.example.com/',
      'https://*.example.com',
      'console.example.com',
      'ftp://x.example',
    ])
      expect(() => loadConfig({ CONSOLE_ORIGINS: bad })).toThrow(/CONSOLE_ORIGINS: .*is not an origin/);
  });

  it('fails a stale backup after 3 heartbeats at the least', () => {
    const sut = loadConfig({});
    expect([sut.BACKUP_HEARTBEAT_SECONDS, sut.BACKUP_STALE_AFTER_SECONDS]).toEqual([15, 180]);
    expect(sut.BACKUP_SWEEP_INTERVAL_SECONDS).toBe(60);
    expect(() => loadConfig({ BACKUP_STALE_AFTER_SECONDS: '44' })).toThrow(
      /BACKUP_STALE_AFTER_SECONDS: must be at least 3/,
    );
    expect(
      loadConfig({ BACKUP_HEARTBEAT_SECONDS: '1', BACKUP_STALE_AFTER_SECONDS: '3' })
        .BACKUP_STALE_AFTER_SECONDS,
    ).toBe(3);
  });

  it('polls for jobs every second unless told otherwise, and no more often than pg-boss allows', () => {
    expect(loadConfig({}).JOB_POLL_SECONDS).toBe(1);
    expect(loadConfig({ JOB_POLL_SECONDS: '0.5' }).JOB_POLL_SECONDS).toBe(0.5);
    expect(() => loadConfig({ JOB_POLL_SECONDS: '0.1' })).toThrow(/JOB_POLL_SECONDS/);
  });

  it('looks at a pre-restore backup every second unless told otherwise', () => {
    expect(loadConfig({}).BACKUP_WAIT_POLL_SECONDS).toBe(1);
    expect(loadConfig({ BACKUP_WAIT_POLL_SECONDS: '0.25' }).BACKUP_WAIT_POLL_SECONDS).toBe(0.25);
    expect(() => loadConfig({ BACKUP_WAIT_POLL_SECONDS: '0.01' })).toThrow(/BACKUP_WAIT_POLL_SECONDS/);
  });

  it("keeps Graph's one conditional access request a second unless told otherwise", () => {
    expect(loadConfig({}).GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS).toBe(1000);
    expect(
      loadConfig({ GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS: '0' }).GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS,
    ).toBe(0);
    expect(() => loadConfig({ GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS: '-1' })).toThrow(
      /GRAPH_CONDITIONAL_ACCESS_INTERVAL_MS/,
    );
  });
});
