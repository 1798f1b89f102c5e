import { InitialSchema1763800000000 } from './1763800000000-InitialSchema.js';
import { CreateSchedules1763900000000 } from './1763900000000-CreateSchedules.js';

/** Every migration, oldest first; TypeORM runs the pending ones at boot (`migrationsRun`). */
export const MIGRATIONS = [InitialSchema1763800000000, CreateSchedules1763900000000];
