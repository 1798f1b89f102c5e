import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EmailCodeEntity } from './email-code.entity.js';

/** Limits a repository call applies; see EMAIL_CODE_RULES. */
interface CodeLimits {
  ttlSeconds: number;
  sendsPerWindow: number;
  sendWindowSeconds: number;
  maxFailedAttempts: number;
}

/** Pending e-mail codes and send budgets (`sign_in_codes`). Times are the database's clock. */
@Injectable()
export class EmailCodesRepository {
  constructor(@InjectRepository(EmailCodeEntity) private readonly rows: Repository<EmailCodeEntity>) {}

  /**
   * Replaces the address's pending code with `codeHash` (fresh tries, new expiry) when its send
   * budget allows: at most `sendsPerWindow` codes per `sendWindowSeconds` window.
   * @returns 0 when stored; else the seconds until the budget allows another code.
   */
  async replaceWithinBudget(email: string, codeHash: string, limits: CodeLimits): Promise<number> {
    const stored: unknown[] = await this.rows.query(
      `INSERT INTO sign_in_codes AS c
         (email, code_hash, expires_at, failed_attempts, window_started_at, sends_in_window)
       VALUES ($1, $2, now() + make_interval(secs => $3), 0, now(), 1)
       ON CONFLICT (email) DO UPDATE SET
         code_hash = EXCLUDED.code_hash,
         expires_at = EXCLUDED.expires_at,
         failed_attempts = 0,
         window_started_at = CASE WHEN c.window_started_at <= now() - make_interval(secs => $4)
                                  THEN now() ELSE c.window_started_at END,
         sends_in_window = CASE WHEN c.window_started_at <= now() - make_interval(secs => $4)
                                THEN 1 ELSE c.sends_in_window + 1 END
       WHERE c.window_started_at <= now() - make_interval(secs => $4) OR c.sends_in_window < $5
       RETURNING 1`,
      [email, codeHash, limits.ttlSeconds, limits.sendWindowSeconds, limits.sendsPerWindow],
    );
    if (stored.length > 0) return 0;
    const [row]: Array<{ wait: number }> = await this.rows.query(
      `SELECT greatest(1, ceil(extract(epoch FROM window_started_at + make_interval(secs => $2) - now())))::int AS wait
       FROM sign_in_codes WHERE email = $1`,
      [email, limits.sendWindowSeconds],
    );
    return row?.wait ?? 1;
  }

  /**
   * In one transaction with the address's row locked (two concurrent tries cannot both use a
   * code): asks `matches` about the usable stored hash (null when there is no pending code, it
   * expired, or its tries are spent). A match uses the code up; a miss counts a failed try and
   * voids the code at the `maxFailedAttempts`-th.
   * @returns whether `matches` said yes to a usable code.
   */
  consume(
    email: string,
    matches: (usableHash: string | null) => boolean,
    limits: Pick<CodeLimits, 'maxFailedAttempts'>,
  ): Promise<boolean> {
    return this.rows.manager.transaction(async (manager) => {
      const [row]: Array<{ codeHash: string | null; live: boolean; failedAttempts: number }> =
        await manager.query(
          `SELECT code_hash AS "codeHash", expires_at > now() AS live, failed_attempts AS "failedAttempts"
         FROM sign_in_codes WHERE email = $1 FOR UPDATE`,
          [email],
        );
      const usable =
        row?.codeHash && row.live && row.failedAttempts < limits.maxFailedAttempts ? row.codeHash : null;
      const matched = matches(usable) && usable !== null;
      if (matched) {
        await manager.query(
          'UPDATE sign_in_codes SET code_hash = NULL, expires_at = NULL, failed_attempts = 0 WHERE email = $1',
          [email],
        );
      } else if (usable !== null) {
        await manager.query(
          `UPDATE sign_in_codes SET failed_attempts = failed_attempts + 1,
             code_hash = CASE WHEN failed_attempts + 1 >= $2 THEN NULL ELSE code_hash END
           WHERE email = $1`,
          [email, limits.maxFailedAttempts],
        );
      }
      return matched;
    });
  }

  /** Deletes rows whose code and send window are both over. @returns rows removed. */
  async deleteSpent(sendWindowSeconds: number): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('(expires_at IS NULL OR expires_at <= now())')
      .andWhere('window_started_at <= now() - make_interval(secs => :window)', { window: sendWindowSeconds })
      .execute();
    return result.affected ?? 0;
  }
}
