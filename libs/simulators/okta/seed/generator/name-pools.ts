import { faker } from '@faker-js/faker/locale/en';

/** Pools of realistic values drawn once from faker; generators then pick from them by PRNG. */
export interface NamePools {
  firstNames: string[];
  lastNames: string[];
  jobTitles: string[];
  cities: string[];
  companyDomain: string;
  teamNames: string[];
}

/** Departments of a typical enterprise: user profiles carry one, and department groups match them. */
export const DEPARTMENTS = [
  'Engineering',
  'Sales',
  'Marketing',
  'Finance',
  'Human Resources',
  'Legal',
  'Customer Support',
  'Operations',
  'Product',
  'IT',
  'Security',
  'Facilities',
] as const;

function unique(count: number, draw: () => string): string[] {
  const values = new Set<string>();
  // Faker pools are finite; stop after enough attempts rather than loop forever.
  for (let attempts = 0; values.size < count && attempts < count * 20; attempts++) values.add(draw());
  return [...values];
}

/**
 * Draws the pools from faker seeded with `seed`. Faker is slow per call, so an org of any
 * size is built from these few hundred values (combinations keep logins unique).
 */
export function namePools(seed: number): NamePools {
  faker.seed(seed);
  return {
    firstNames: unique(400, () => faker.person.firstName()),
    lastNames: unique(600, () => faker.person.lastName()),
    jobTitles: unique(150, () => faker.person.jobTitle()),
    cities: unique(120, () => faker.location.city()),
    companyDomain: faker.internet.domainName(),
    teamNames: unique(200, () =>
      `${faker.word.adjective()} ${faker.word.noun()}`.replace(/^./, (c) => c.toUpperCase()),
    ),
  };
}
