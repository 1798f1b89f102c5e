import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/** The S3 errors the proxy answers with ("Error responses", Amazon S3 API reference). */
const S3_ERRORS = {
  500: { code: 'InternalError', message: 'We encountered an internal error. Please try again.' },
  503: { code: 'SlowDown', message: 'Please reduce your request rate.' },
} as const;

/** An S3 endpoint in front of a real one that fails every request while told to. */
export interface S3FaultProxy {
  /** `http://127.0.0.1:<port>`: give it to the service as S3_ENDPOINT */
  endpoint: string;
  /** Answer every request with this S3 error from now on, or pass them through (null). */
  fail(status: 500 | 503 | null): void;
  /**
   * Pass `writes` more writes (PUT and POST requests) through, then answer every request with
   * `status` (an outage that begins while a snapshot is being written), until `fail(null)`.
   */
  failAfterWrites(writes: number, status: 500 | 503): void;
  /** Requests answered with an error so far. */
  failures(): number;
  close(): Promise<void>;
}

/**
 * Starts a loopback HTTP proxy to `upstream` (s3rver) that, while failing, answers each request
 * with S3's XML error body and status instead of forwarding it, as S3 does under load or during
 * an outage. Requests pass through byte for byte otherwise (signatures stay valid: the Host header
 * is kept as the client signed it).
 */
export async function startS3FaultProxy(upstream: string): Promise<S3FaultProxy> {
  const target = new URL(upstream);
  let failing: 500 | 503 | null = null;
  let failures = 0;
  let outage: { writesLeft: number; status: 500 | 503 } | undefined;
  const server = http.createServer((request, response) => {
    if (outage && (request.method === 'PUT' || request.method === 'POST') && outage.writesLeft-- <= 0) {
      failing = outage.status;
      outage = undefined;
    }
    if (failing !== null) {
      failures += 1;
      const { code, message } = S3_ERRORS[failing];
      request.resume();
      response.writeHead(failing, { 'Content-Type': 'application/xml', 'x-amz-request-id': randomUUID() });
      response.end(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${randomUUID()}</RequestId></Error>`,
      );
      return;
    }
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    fail: (status) => {
      failing = status;
      outage = undefined;
    },
    failAfterWrites: (writes, status) => (outage = { writesLeft: writes, status }),
    failures: () => failures,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
