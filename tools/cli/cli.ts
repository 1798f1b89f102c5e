import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { exitWith } from '@app/platform/bootstrap/exit-with.js';
import { loadConfig } from '@app/platform/config/app-config.js';
import { StderrLogger } from '@app/platform/bootstrap/stderr-logger.js';
import { runCli } from './cli-runner.js';

/**
 * Admin CLI: `npm run cli -- team:create --name <n> --owner-email <e>`,
 * `npm run cli -- client:create --team <id> --role <role> [--name <n>]` and
 * `npm run cli -- outbox:list [--to <email>] [--limit <n>]` (the e-mails kept without SMTP_URL),
 * `npm run cli -- team:plan --team <id> --plan <plan>` and `npm run cli -- keys:rotate` (master key
 * rotation, docs/operations.md).
 * Prints one JSON line.
 */
async function main(): Promise<number> {
  Logger.overrideLogger(new StderrLogger({ logLevels: ['error', 'warn', 'log'] }));
  try {
    return await runCli(process.argv.slice(2), loadConfig(), {
      stdout: (line) => process.stdout.write(`${line}\n`),
      stderr: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
}

exitWith(await main());
