import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { StderrLogger } from '@app/platform/bootstrap/stderr-logger.js';
import { resolveDatabase } from '@app/platform/bootstrap/database-url.js';
import { ApiError, ValidationError } from '@app/common/errors.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { MailService } from '@app/platform/mail/mail.service.js';
import { TeamsService } from '@app/identity/teams/teams.service.js';
import { type CliCommand, parseCommand, UsageError, USAGE } from './cli-args.js';
import { CliModule } from './cli.module.js';
import { PlanLimitsService } from '@app/plans/plan-limits.service.js';
import { KeyRotationService } from '@app/platform/key-rotation/key-rotation.service.js';

/** Where the CLI writes: stdout carries exactly one JSON line, everything else goes to stderr. */
export interface CliOutput {
  stdout(line: string): void;
  stderr(line: string): void;
}

/** What a command prints: the JSON result for stdout and a note for the operator on stderr. */
interface CommandResult {
  json: Record<string, unknown>;
  note: string;
}

/**
 * Runs one provisioning command against the configured database (or the embedded cluster,
 * joined when the service is running, started and stopped otherwise).
 * @returns the process exit code: 0 done, 1 failed, 2 bad command line or input.
 */
export async function runCli(argv: string[], config: AppConfig, out: CliOutput): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    out.stderr(`${error.message}\n${USAGE}`);
    return 2;
  }

  const database = await resolveDatabase(config);
  try {
    const context = await NestFactory.createApplicationContext(CliModule.forRoot(config, database.url), {
      logger: new StderrLogger({ logLevels: ['error', 'warn'] }),
    });
    try {
      const result = await execute(context, command);
      out.stdout(JSON.stringify(result.json));
      out.stderr(result.note);
      return 0;
    } finally {
      await context.close();
    }
  } catch (error) {
    if (error instanceof ValidationError) {
      out.stderr(`${messageOf(error)}\n${USAGE}`);
      return 2;
    }
    out.stderr(`Failed: ${messageOf(error)}`);
    return 1;
  } finally {
    await database.stop();
  }
}

async function execute(context: INestApplicationContext, command: CliCommand): Promise<CommandResult> {
  const teams = context.get(TeamsService);
  switch (command.command) {
    case 'team:create': {
      const { team, owner } = await teams.createTeam({ name: command.name, ownerEmail: command.ownerEmail });
      return {
        json: { team_id: team.id, owner_user_id: owner.id },
        note: `Team created. Next: npm run cli -- client:create --team ${team.id} --role admin`,
      };
    }
    case 'client:create': {
      const client = await teams.createClient({
        teamId: command.teamId,
        role: command.role,
        name: command.name,
      });
      return {
        json: {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          team_id: client.teamId,
          role: client.role,
        },
        note: 'Store the client_secret now: it is shown only once and only its hash is kept.',
      };
    }
    case 'team:plan': {
      if (!(await context.get(PlanLimitsService).setPlan(command.teamId, command.plan)))
        throw new Error(`No team ${command.teamId}`);
      return {
        json: { team_id: command.teamId, plan: command.plan },
        note: 'Plan changed; its limits apply now.',
      };
    }
    case 'keys:rotate': {
      const report = await context.get(KeyRotationService).rotate();
      const old = Object.keys(report.under).filter((kid) => kid !== report.active_kid);
      return {
        json: { ...report },
        note: old.length
          ? `Still under ${old.join(', ')}: run keys:rotate again once every replica has the new MASTER_KEY.`
          : `Every secret and snapshot is under ${report.active_kid}; the other keys can leave MASTER_KEY.`,
      };
    }
    case 'outbox:list': {
      const emails = await context.get(MailService).listOutbox(command.to, command.limit);
      return {
        json: {
          emails: emails.map((email) => ({
            id: email.id,
            to: email.recipient,
            subject: email.subject,
            body: email.body,
            created_at: email.createdAt.toISOString(),
          })),
        },
        note: `${emails.length} e-mail(s), newest first; the outbox keeps them for 24 hours. Set SMTP_URL to send them instead.`,
      };
    }
  }
}

/** The human message of an error; an ApiError keeps it in its response body (`error`). */
function messageOf(error: unknown): string {
  if (error instanceof ApiError) return (error.getResponse() as { error: string }).error;
  return error instanceof Error ? error.message : String(error);
}
