import { useQuery } from '@tanstack/react-query';
import { runTargets, type RunTarget } from '../logic/run-targets';
import { useCan } from '../session/me';
import { api, unwrap } from './client';

/** The most backups one list request answers (the API's page cap, MAX_BACKUP_PAGE). */
const NAMING_PAGE = 1000;

/**
 * The team's connections as choices (id and display name) for the role that reads them: every
 * connection where the role may list them (`manage connections`), else those the team's latest
 * 1,000 backups name (an auditor or viewer may read backups, not connections). Every screen
 * asks with the same query keys, so the lists are fetched once. `only` keeps the connections it
 * accepts (e.g. one provider's).
 */
export function useConnectionChoices(only: (connection: { provider: string }) => boolean = () => true): {
  choices: RunTarget[];
  error: unknown;
  loaded: boolean;
} {
  const canListConnections = useCan('manage connections');
  const connections = useQuery({
    queryKey: ['connections'],
    queryFn: () => unwrap(api().GET('/api/connections')),
    enabled: canListConnections,
  });
  const named = useQuery({
    queryKey: ['backups', 'list', { limit: NAMING_PAGE }],
    queryFn: () => unwrap(api().GET('/api/backup/list', { params: { query: { limit: NAMING_PAGE } } })),
    enabled: !canListConnections,
  });
  const source = canListConnections ? connections : named;
  return {
    choices: runTargets(
      connections.data?.connections.filter(only),
      named.data?.backups.filter((backup) => only(backup.connection)),
    ),
    error: source.error,
    loaded: source.isSuccess,
  };
}
