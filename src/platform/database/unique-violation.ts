import { QueryFailedError } from 'typeorm';

/**
 * Whether a failed query broke the named unique index (PostgreSQL reports it as the error's
 * `constraint`): how "one running backup / one active restore per connection" is enforced
 * across replicas without a race.
 */
export function violatesUnique(error: unknown, constraint: string): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { constraint?: string }).constraint === constraint
  );
}
