import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';

import type { TlsMaterial } from './certificates.js';

/**
 * An HTTPS server with `tls`'s certificate listening on `host:port` (0: an ephemeral port), and
 * its base URL (`https://127.0.0.1:54321`, IPv6 hosts in brackets). Shared by the simulators.
 * Rejects when the port is taken.
 */
export async function listenHttps(
  tls: TlsMaterial,
  host: string,
  port: number,
): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer({ cert: tls.serverCertPem, key: tls.serverKeyPem });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return { server, baseUrl: `https://${host.includes(':') ? `[${host}]` : host}:${bound}` };
}
