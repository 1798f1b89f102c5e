import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { freePort } from '@app/platform/bootstrap/free-port.js';
import { UPLOAD_LIMIT_BYTES } from '@app/backups/backup-upload.service.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { startServiceProcess, type ServiceProcess } from './support/service-process.js';

/** Anonymous uploads sent at once: past what a 512 MB replica held when each was buffered. */
const UPLOADS = 30;
/** Each one's size: just under the 10 MiB cap, so only authentication can refuse it. */
const UPLOAD_BYTES = 9_900_000;
/** How far the service's RSS may rise above its idle figure while they are answered. */
const RSS_ALLOWANCE_BYTES = 30 * 1024 * 1024;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Body bytes the client had handed to the socket when the answer came. */
  bytesWritten: number;
}

/**
 * The upload route's body is not read before the guards (docs/security.md "Plans, request edge,
 * heavy work"): anonymous uploads are answered 401 without their bodies, so they cost the
 * service no memory; a declared size over the cap is a 413 before any byte. Run against the
 * service as a separate process (src/main.ts), whose RSS is read from /proc/<pid>/status.
 */
describe('the upload route reads no body before authentication', () => {
  let ctx: TestApp;
  let service: ServiceProcess;
  let port: number;
  const path = () => `/api/connections/${randomUUID()}/workflows/upload`;
  const body = Buffer.alloc(UPLOAD_BYTES, 0x20);

  /**
   * Sends a POST declaring `declared` body bytes and writes `send` of them (waiting for the
   * socket to drain), stopping as soon as the answer arrives.
   */
  const post = (declared: number, send: number, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      let bytesWritten = 0;
      let answered = false;
      const request = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: path(),
        headers: {
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(declared),
          ...headers,
        },
      });
      request.on('error', (error) => (answered ? undefined : reject(error)));
      request.on('response', (response) => {
        answered = true;
        const written = bytesWritten;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          request.destroy();
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: text,
            bytesWritten: written,
          });
        });
      });
      const write = (): void => {
        while (!answered && bytesWritten < send) {
          const chunk = body.subarray(bytesWritten, Math.min(send, bytesWritten + 65_536));
          bytesWritten += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', write);
        }
      };
      request.flushHeaders();
      write();
    });

  const rssBytes = (): number => {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${service.pid}/status`, 'utf8'));
    return Number(line![1]) * 1024;
  };

  beforeAll(async () => {
    ctx = await startTestApp({ ROLE: 'api' });
    port = await freePort();
    service = await startServiceProcess(
      {
        ROLE: 'api',
        NODE_ENV: 'test',
        PORT: String(port),
        BASE_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: ctx.databaseUrl,
        DATA_DIR: ctx.dataDir,
        MASTER_KEY: ctx.config.MASTER_KEY!,
        LOG_LEVEL: 'log',
      },
      180_000,
    );
  }, 240_000);

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await ctx?.close();
  });

  it('answers anonymous uploads 401 while most of their body is still unsent', async () => {
    // Each sends 64 KB of a 9.9 MB body and waits: a service that read the body first never answers.
    const answers = await Promise.all(Array.from({ length: UPLOADS }, () => post(UPLOAD_BYTES, 65_536)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(UPLOADS).fill(401));
    expect(answers[0].headers['www-authenticate']).toMatch(/^Bearer resource_metadata=/);
    expect(JSON.parse(answers[0].body)).toMatchObject({ code: 'unauthorized' });
  }, 30_000);

  it('refuses a declared Content-Length over the cap with 413 before any byte of the body', async () => {
    const answer = await post(UPLOAD_LIMIT_BYTES + 1, 0);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({
      code: 'payload_too_large',
      error: 'Request body too large (at most 10 MB)',
      details: [{ field: 'body', message: 'larger than 10 MB' }],
      requestId: expect.any(String),
    });
  });

  it(`stays within 30 MB of its idle RSS under ${UPLOADS} concurrent anonymous 9.9 MB uploads`, async () => {
    // Warm the 401 path at the same concurrency, then take the idle figure as the lowest of a few readings.
    await Promise.all(Array.from({ length: UPLOADS }, () => post(1024, 1024)));
    const readings: number[] = [];
    for (let i = 0; i < 5; i++) {
      readings.push(rssBytes());
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const idle = Math.min(...readings);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes())), 5);
    let answers: Answer[];
    try {
      answers = await Promise.all(Array.from({ length: UPLOADS }, () => post(UPLOAD_BYTES, UPLOAD_BYTES)));
      peak = Math.max(peak, rssBytes());
    } finally {
      clearInterval(sampler);
    }
    expect(answers.map((answer) => answer.status)).toEqual(Array(UPLOADS).fill(401));
    expect(peak - idle).toBeLessThanOrEqual(RSS_ALLOWANCE_BYTES);
    process.stdout.write(
      `upload-edge: idle RSS ${(idle / 1048576).toFixed(1)} MB, peak ${(peak / 1048576).toFixed(1)} MB under ${UPLOADS} anonymous uploads\n`,
    );
  }, 120_000);
});
