import { parseArgs } from 'node:util';

import type { SimulatorOptions } from './simulator-options.js';

export const CLI_USAGE =
  'usage: simulator --port <p> [--host H] [--users N --groups N --apps N --seed S] [--fixtures DIR [--fixture-org NAME]] ' +
  '[--rate-limits none|enterprise] [--cert-dir DIR]';

/** A command line the CLI refuses; the message says which flag and why. */
export class CliUsageError extends Error {}

function integer(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new CliUsageError(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/**
 * Parses the simulator's flags (util.parseArgs, strict: unknown flags and positionals are
 * refused) into {@link SimulatorOptions}. Throws {@link CliUsageError}.
 */
export function parseCliOptions(argv: readonly string[]): SimulatorOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        users: { type: 'string' },
        groups: { type: 'string' },
        apps: { type: 'string' },
        seed: { type: 'string' },
        fixtures: { type: 'string' },
        'fixture-org': { type: 'string' },
        'rate-limits': { type: 'string' },
        'cert-dir': { type: 'string' },
      },
    }));
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const rateLimits = values['rate-limits'];
  if (rateLimits !== undefined && rateLimits !== 'none' && rateLimits !== 'enterprise')
    throw new CliUsageError(`--rate-limits must be none or enterprise, got "${rateLimits}"`);
  return {
    port: integer('port', values.port),
    host: values.host,
    users: integer('users', values.users),
    groups: integer('groups', values.groups),
    apps: integer('apps', values.apps),
    seed: integer('seed', values.seed),
    fixturesDir: values.fixtures,
    fixtureOrg: values['fixture-org'],
    rateLimits,
    certDir: values['cert-dir'],
  };
}
