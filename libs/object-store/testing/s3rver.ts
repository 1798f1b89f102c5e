import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** An S3-compatible server (s3rver) on loopback, for tests of the S3 driver and of the service on S3. */
export interface RunningS3rver {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** s3rver's fixed credentials */
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * s3rver runs in a child process with OpenSSL's legacy provider: it signs ListObjectsV2
 * continuation tokens with DES, which OpenSSL 3 (Node 18+) disables by default, so any listing
 * longer than one page fails inside s3rver otherwise.
 */
const S3RVER_SCRIPT = `
const S3rver = require('s3rver');
const [directory, bucket] = process.argv.slice(1);
new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] })
  .run()
  .then(({ port }) => console.log(JSON.stringify({ port })), (error) => { console.error(error); process.exit(1); });
`;

/**
 * Starts s3rver on a free loopback port, storing under `directory`, with `bucket` created.
 * @throws when the child exits before it prints its port
 */
export async function startS3rver(directory: string, bucket: string): Promise<RunningS3rver> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--openssl-legacy-provider', '-e', S3RVER_SCRIPT, directory, bucket],
    {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { port } = JSON.parse(line) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  };
}
