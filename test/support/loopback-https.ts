import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { issueTlsMaterial } from '@libs/simulators/kit/tls/certificates.js';

/** An HTTPS server on 127.0.0.1 with a certificate from a test CA (SAN 127.0.0.1, ::1, localhost). */
export interface LoopbackHttps {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** PEM of the CA that signed the certificate: give it to the service as AUTH_CA_FILE. */
  caCertPath: string;
  close(): Promise<void>;
}

/**
 * Starts `handler` over HTTPS on an ephemeral loopback port. Servers started with the same
 * `tlsDir` share one CA, so one AUTH_CA_FILE trusts them all.
 */
export async function startLoopbackHttps(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  tlsDir: string = mkdtempSync(join(tmpdir(), 'loopback-tls-')),
): Promise<LoopbackHttps> {
  const tls = await issueTlsMaterial(tlsDir);
  const server = createServer({ key: tls.serverKeyPem, cert: tls.serverCertPem }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caCertPath: tls.caCertPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A canned HTTP answer. */
export interface CannedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

/** Serves canned answers by path (404 for the others), e.g. Client ID Metadata Documents; counts requests per path. */
export interface DocumentServer extends LoopbackHttps {
  serve(path: string, response: CannedResponse): void;
  requests(path: string): number;
}

export async function startDocumentServer(tlsDir?: string): Promise<DocumentServer> {
  const routes = new Map<string, CannedResponse>();
  const hits = new Map<string, number>();
  const server = await startLoopbackHttps((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const canned = routes.get(path) ?? { status: 404, body: 'not found' };
    res.writeHead(canned.status ?? 200, { 'content-type': 'application/json', ...canned.headers });
    res.end(canned.body ?? '');
  }, tlsDir);
  return {
    ...server,
    serve: (path, response) => routes.set(path, response),
    requests: (path) => hits.get(path) ?? 0,
  };
}
