import { parseArgs } from 'node:util';
import { isRole, type Role, ROLES } from '@app/common/permission.js';

/** The rows of `plans` (docs/plans.md). */
export const PLANS = ['free', 'trial', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** A parsed, checked command line. */
export type CliCommand =
  | { command: 'team:create'; name: string; ownerEmail: string }
  | { command: 'client:create'; teamId: string; role: Role; name?: string }
  | { command: 'outbox:list'; to?: string; limit: number }
  | { command: 'team:plan'; teamId: string; plan: Plan }
  | { command: 'keys:rotate' };

/** Most e-mails outbox:list prints at once. */
export const MAX_OUTBOX_LIST = 100;

/** Bad command line: the CLI prints the message and USAGE on stderr and exits 2. */
export class UsageError extends Error {}

export const USAGE = [
  'Usage:',
  '  npm run cli -- team:create --name <name> --owner-email <email>',
  '  npm run cli -- client:create --team <team_id> --role <role> [--name <name>]',
  `  npm run cli -- outbox:list [--to <email>] [--limit <1-${MAX_OUTBOX_LIST}, default 20>]`,
  '  npm run cli -- team:plan --team <team_id> --plan <plan>',
  '  npm run cli -- keys:rotate   (after putting a new key first in MASTER_KEY; docs/operations.md)',
  `Roles: ${ROLES.join(', ')}`,
  `Plans: ${PLANS.join(', ')}`,
].join('\n');

/**
 * Parses `argv` (without node and the script): a command, then its `--flag value` or
 * `--flag=value` options.
 * @throws UsageError for an unknown command or flag, a missing or repeated flag, or an unknown role.
 */
export function parseCommand(argv: string[]): CliCommand {
  const [command, ...rest] = argv;
  switch (command) {
    case 'team:create': {
      const flags = parseFlags(rest, ['name', 'owner-email']);
      return { command, name: required(flags, 'name'), ownerEmail: required(flags, 'owner-email') };
    }
    case 'client:create': {
      const flags = parseFlags(rest, ['team', 'role', 'name']);
      const role = required(flags, 'role');
      if (!isRole(role)) throw new UsageError(`Unknown role "${role}"`);
      return { command, teamId: required(flags, 'team'), role, name: flags.name };
    }
    case 'outbox:list': {
      const flags = parseFlags(rest, ['to', 'limit']);
      const limit = Number(flags.limit ?? 20);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_OUTBOX_LIST)
        throw new UsageError(`--limit must be a whole number from 1 to ${MAX_OUTBOX_LIST}`);
      return { command, to: flags.to, limit };
    }
    case 'team:plan': {
      const flags = parseFlags(rest, ['team', 'plan']);
      const plan = required(flags, 'plan');
      if (!(PLANS as readonly string[]).includes(plan)) throw new UsageError(`Unknown plan "${plan}"`);
      return { command, teamId: required(flags, 'team'), plan: plan as Plan };
    }
    case 'keys:rotate':
      parseFlags(rest, []);
      return { command };
    default:
      throw new UsageError(command === undefined ? 'No command given' : `Unknown command "${command}"`);
  }
}

function parseFlags(args: string[], names: string[]): Record<string, string | undefined> {
  try {
    const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    // node:util reports unknown flags, stray arguments and missing values as TypeErrors.
    throw new UsageError((error as Error).message);
  }
}

function required(flags: Record<string, string | undefined>, name: string): string {
  const value = flags[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`Missing --${name}`);
  return value;
}
