import pg from 'pg';
import { resolveDatabase } from '@app/platform/bootstrap/database-url.js';
import { loadConfigWith } from '@app/platform/config/app-config.js';
import type { BenchOrg } from './bench-org.js';

/** Where seeded rows belong: a team, its owner, and the connections their backups are of. */
export interface SeedTarget {
  teamId: string;
  ownerId: string;
  connectionIds: string[];
}

/** The bench service's database, opened beside it to seed rows, with the bench team and its owner. */
export interface SeedDatabase {
  db: pg.Client;
  teamId: string;
  ownerId: string;
  close(): Promise<void>;
}

/** Opens the database of the bench's service (its embedded PostgreSQL, joined) and finds its team. */
export async function openSeedDatabase(bench: BenchOrg): Promise<SeedDatabase> {
  const config = loadConfigWith({ ...bench.service.env, ROLE: 'api', LOG_LEVEL: 'error' });
  const database = await resolveDatabase(config);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  const { rows } = await db.query(`SELECT team_id, user_id FROM team_members WHERE role = 'super_admin'`);
  const { team_id: teamId, user_id: ownerId } = rows[0] as { team_id: string; user_id: string };
  return {
    db,
    teamId,
    ownerId,
    async close() {
      await db.end();
      await database.stop();
    },
  };
}

/**
 * `perConnection` completed backup records of each connection, in bulk, one every `every` back
 * from now (the newest one `every` ago). Their storage keys name no snapshot: they stand for
 * history (lists, exports, audit packs), never for a backup to open.
 * @param every a PostgreSQL interval, `1 hour`, `1 day`
 */
export async function seedBackups(
  db: pg.Client,
  target: SeedTarget,
  perConnection: number,
  every: string,
): Promise<void> {
  await db.query(
    `INSERT INTO backups (team_id, connection_id, owner_user_id, status, storage_key, started_at, completed_at,
       resource_counts, resource_types, size, sha256)
     SELECT $1, c, $2, 'completed', 'bench/' || c || '/' || i, now() - i * $5::interval, now() - i * $5::interval,
       '{"users": 100, "groups": 10, "apps": 5}', '{users,groups,apps}', 123456, md5(c || i::text)
     FROM unnest($3::uuid[]) AS c, generate_series(1, $4) AS i`,
    [target.teamId, target.ownerId, target.connectionIds, perConnection, every],
  );
  await db.query('ANALYZE backups');
}

/** `count` audit events of the team, one a second back from now, in bulk. */
export async function seedAuditEvents(db: pg.Client, target: SeedTarget, count: number): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (team_id, occurred_at, actor_type, actor_id, action, target_type, target_id, outcome, ip, request_id, details)
     SELECT $1, now() - make_interval(secs => i), 'user', $2, 'connection.updated', 'connection', $3, 'success',
       '127.0.0.1', gen_random_uuid()::text, jsonb_build_object('changed', jsonb_build_array('org_name'), 'n', i)
     FROM generate_series(1, $4) AS i`,
    [target.teamId, target.ownerId, target.connectionIds[0], count],
  );
  await db.query('ANALYZE audit_events');
}

/** A client_credentials access token for the API resource (RFC 8707). */
export async function accessToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource: `${baseUrl}/api/` }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`token endpoint answered ${response.status}`);
  return body.access_token;
}

/** Reads a response's body to its end without keeping it. @returns its length in bytes */
export async function drain(response: Response): Promise<number> {
  if (!response.body) throw new Error(`no body (${response.status})`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += (chunk as Uint8Array).byteLength;
  return bytes;
}
