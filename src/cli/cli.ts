import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/app-config.js';
import { runCli, StderrLogger } from './cli-runner.js';

/**
 * Provisioning CLI: `npm run cli -- team:create --name <n> --owner-email <e>` and
 * `npm run cli -- client:create --team <id> --role <role> [--name <n>]`. Prints one JSON line.
 */
Logger.overrideLogger(new StderrLogger({ logLevels: ['error', 'warn', 'log'] }));
try {
  process.exitCode = await runCli(process.argv.slice(2), loadConfig(), {
    stdout: (line) => process.stdout.write(`${line}\n`),
    stderr: (line) => process.stderr.write(`${line}\n`),
  });
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
}
