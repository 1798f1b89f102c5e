import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SessionEntity } from './session.entity.js';
import type { SignInMethod } from './sign-in-method.js';

/** Seconds between two writes of `last_seen_at` for one session: a request does not always cost a write. */
const TOUCH_EVERY_SECONDS = 60;

/** Signed-in sessions (`sessions`). Times are the database's clock. */
@Injectable()
export class SessionsRepository {
  constructor(@InjectRepository(SessionEntity) private readonly rows: Repository<SessionEntity>) {}

  async insert(session: {
    idHash: string;
    userId: string;
    teamId: string;
    method: SignInMethod;
    lifetimeSeconds: number;
  }): Promise<void> {
    await this.rows.query(
      `INSERT INTO sessions (id_hash, user_id, team_id, method, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [session.idHash, session.userId, session.teamId, session.method, session.lifetimeSeconds],
    );
  }

  /**
   * The session if it is within both timeouts, recording the activity (at most one write a
   * minute, so the idle timeout is exact to a minute).
   */
  async findLiveAndTouch(
    idHash: string,
    idleSeconds: number,
  ): Promise<Pick<SessionEntity, 'userId' | 'teamId'> | null> {
    const rows: Array<Pick<SessionEntity, 'userId' | 'teamId'>> = await this.rows.query(
      `WITH live AS (
         SELECT id_hash, user_id, team_id, last_seen_at FROM sessions
         WHERE id_hash = $1 AND expires_at > now() AND last_seen_at > now() - make_interval(secs => $2)
       ), touched AS (
         UPDATE sessions s SET last_seen_at = now() FROM live
         WHERE s.id_hash = live.id_hash AND live.last_seen_at < now() - make_interval(secs => $3)
       )
       SELECT user_id AS "userId", team_id AS "teamId" FROM live`,
      [idHash, idleSeconds, TOUCH_EVERY_SECONDS],
    );
    return rows[0] ?? null;
  }

  /** Binds the live session to another team. @returns false when the session is unknown or ended. */
  async setTeam(idHash: string, teamId: string): Promise<boolean> {
    const [, updated] = (await this.rows.query(
      'UPDATE sessions SET team_id = $2 WHERE id_hash = $1 AND expires_at > now()',
      [idHash, teamId],
    )) as [unknown, number];
    return updated === 1;
  }

  async delete(idHash: string): Promise<void> {
    await this.rows.delete({ idHash });
  }

  /** Deletes sessions past either timeout. @returns rows removed. */
  async deleteExpired(idleSeconds: number): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('expires_at <= now() OR last_seen_at <= now() - make_interval(secs => :idle)', {
        idle: idleSeconds,
      })
      .execute();
    return result.affected ?? 0;
  }
}
