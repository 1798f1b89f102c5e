import { mkdtemp, rm } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { issueTlsMaterial, type TlsMaterial } from './certificates.js';

/** A provider stand-in for connector-kit specs: an HTTPS server on loopback and an agent that trusts it. */
export interface LoopbackHttps {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  agent: Agent;
  /** its CA, server certificate and key (a spec may use the key pair as a client's credential) */
  tls: TlsMaterial;
  close(): Promise<void>;
}

/** Starts `handler` over HTTPS on 127.0.0.1 with a throwaway CA. */
export async function startLoopbackHttps(handler: RequestListener): Promise<LoopbackHttps> {
  const tlsDir = await mkdtemp(join(tmpdir(), 'kit-loopback-'));
  const tls = await issueTlsMaterial(tlsDir);
  const server = createHttpsServer({ key: tls.serverKeyPem, cert: tls.serverCertPem }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent({ connect: { ca: tls.caCertPem } });
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    agent,
    tls,
    async close() {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
      await rm(tlsDir, { recursive: true, force: true });
    },
  };
}
