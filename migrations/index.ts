import { InitialSchema1763800000000 } from './1763800000000-InitialSchema.js';

/** Every migration, oldest first; TypeORM runs the pending ones at boot (`migrationsRun`). */
export const MIGRATIONS = [InitialSchema1763800000000];
