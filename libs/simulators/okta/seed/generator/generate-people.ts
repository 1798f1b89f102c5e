import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import type { GeneratorContext } from './generator-context.js';
import { DEPARTMENTS } from './name-pools.js';

/** Share of each user status in a generated org (the rest of the first 8 users cover them all). */
const STATUS_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['ACTIVE', 0.8],
  ['STAGED', 0.04],
  ['PROVISIONED', 0.04],
  ['DEPROVISIONED', 0.04],
  ['SUSPENDED', 0.03],
  ['LOCKED_OUT', 0.02],
  ['PASSWORD_EXPIRED', 0.02],
  ['RECOVERY', 0.01],
];

/** Users that have set a password (STAGED and PROVISIONED ones have not yet). */
const HAS_PASSWORD = new Set([
  'ACTIVE',
  'SUSPENDED',
  'LOCKED_OUT',
  'PASSWORD_EXPIRED',
  'RECOVERY',
  'DEPROVISIONED',
]);

const PROVIDER = { type: 'OKTA', name: 'OKTA' };
const WITH_PASSWORD = { password: {}, provider: PROVIDER };
const WITHOUT_PASSWORD = { provider: PROVIDER };

/** What later steps need to know about the generated people. */
export interface People {
  userIds: string[];
  /** Users that can be assigned to apps (not STAGED or DEPROVISIONED). */
  assignableUserIds: string[];
  everyoneGroupId: string;
  /** OKTA_GROUP groups, department groups first. */
  groupIds: string[];
  departmentGroupIds: Map<string, string>;
}

function pickStatus(ctx: GeneratorContext, index: number): string {
  if (index < STATUS_WEIGHTS.length) return STATUS_WEIGHTS[index][0];
  let draw = ctx.prng.next();
  for (const [status, weight] of STATUS_WEIGHTS) {
    if (draw < weight) return status;
    draw -= weight;
  }
  return 'ACTIVE';
}

function loginBase(first: string, last: string): string {
  return `${first}.${last}`.toLowerCase().replace(/[^a-z.'-]/g, '');
}

/** The users' ids, in order, with each one's department; and the assignable ones. */
interface GeneratedUsers {
  userIds: string[];
  departments: string[];
  assignable: string[];
}

function generateUsers(ctx: GeneratorContext, count: number): GeneratedUsers {
  const { prng, pools, state } = ctx;
  const taken = new Map<string, number>();
  // Nested objects every user has alike are shared: stored objects are replaced, never mutated.
  const type = { id: state.defaultUserTypeId };
  const userIds: string[] = [];
  const departments: string[] = [];
  const assignable: string[] = [];
  for (let i = 0; i < count; i++) {
    const firstName = prng.pick(pools.firstNames);
    const lastName = prng.pick(pools.lastNames);
    const base = loginBase(firstName, lastName);
    const seen = taken.get(base) ?? 0;
    taken.set(base, seen + 1);
    // Bases never end in a digit, so a numbered login cannot collide with another base.
    // Strings are built with join (flat) rather than templates (cons cells): see oktaId.
    const email = [base, seen === 0 ? '' : String(seen), '@', pools.companyDomain].join('');
    const status = pickStatus(ctx, i);
    const createdMs = ctx.instant();
    const changedMs = ctx.instant(createdMs);
    const updatedMs = ctx.instant(changedMs);
    const id = ctx.id(ID_PREFIX.user);
    const created = oktaTimestamp(createdMs);
    const hasPassword = HAS_PASSWORD.has(status);
    const data: Json = {
      id,
      status,
      created,
      activated: status === 'STAGED' ? null : created,
      statusChanged: oktaTimestamp(changedMs),
      lastLogin: hasPassword && prng.chance(0.9) ? oktaTimestamp(ctx.instant(changedMs)) : null,
      lastUpdated: oktaTimestamp(updatedMs),
      passwordChanged: hasPassword ? created : null,
      type,
      profile: {
        firstName,
        lastName,
        mobilePhone: prng.chance(0.6)
          ? ['+1 ', prng.int(200, 989), '-', prng.int(200, 999), '-', prng.int(1000, 9999)].join('')
          : null,
        secondEmail: null,
        login: email,
        email,
        title: prng.pick(pools.jobTitles),
        department: departments[departments.push(prng.pick(DEPARTMENTS)) - 1],
        city: prng.pick(pools.cities),
        employeeNumber: String(100000 + i),
      },
      credentials: hasPassword ? WITH_PASSWORD : WITHOUT_PASSWORD,
    };
    state.putUser(id, { data });
    userIds.push(id);
    if (status !== 'STAGED' && status !== 'DEPROVISIONED') assignable.push(id);
  }
  return { userIds, departments, assignable };
}

function groupData(ctx: GeneratorContext, type: string, name: string, description: string): Json {
  const { created, lastUpdated } = ctx.timestamps();
  return {
    id: ctx.id(ID_PREFIX.group),
    created,
    lastUpdated,
    lastMembershipUpdated: lastUpdated,
    objectClass: ['okta:user_group'],
    type,
    profile: { name, description },
  };
}

/** Group names: departments first, then city offices, then teams; unique. */
function groupNames(ctx: GeneratorContext, count: number): Array<[string, string]> {
  const names: Array<[string, string]> = DEPARTMENTS.map((d) => [d, `Everyone in ${d}`]);
  for (const city of ctx.pools.cities) names.push([`${city} Office`, `People based in ${city}`]);
  for (const team of ctx.pools.teamNames) names.push([`${team} Team`, `Members of the ${team} team`]);
  for (let i = 1; names.length < count; i++) names.push([`Project ${i}`, `Project group ${i}`]);
  return names.slice(0, count);
}

function generateGroups(
  ctx: GeneratorContext,
  count: number,
  { userIds, departments }: GeneratedUsers,
): Omit<People, 'userIds' | 'assignableUserIds'> {
  const { state, prng } = ctx;
  const everyone = groupData(ctx, 'BUILT_IN', 'Everyone', 'All users in your organization');
  const everyoneGroupId = String(everyone.id);
  state.groups.set(everyoneGroupId, { data: everyone });
  state.everyoneGroupId = everyoneGroupId;
  const groupIds: string[] = [];
  const departmentGroupIds = new Map<string, string>();
  for (const [name, description] of groupNames(ctx, count)) {
    const data = groupData(ctx, 'OKTA_GROUP', name, description);
    state.groups.set(String(data.id), { data });
    groupIds.push(String(data.id));
    if ((DEPARTMENTS as readonly string[]).includes(name)) departmentGroupIds.set(name, String(data.id));
  }
  const others = groupIds.filter((id) => ![...departmentGroupIds.values()].includes(id));
  userIds.forEach((userId, i) => {
    state.addMember(everyoneGroupId, userId);
    const departmentGroup = departmentGroupIds.get(departments[i]);
    if (departmentGroup) state.addMember(departmentGroup, userId);
    if (others.length > 0)
      for (let k = prng.int(0, 2); k > 0; k--) state.addMember(prng.pick(others), userId);
  });
  return { everyoneGroupId, groupIds, departmentGroupIds };
}

/**
 * Group rules of three shapes, as admins write them: by department (assigns to the department
 * group), nested (members of one group join another, and the generator applies it), and by
 * title. Every fourth rule is INACTIVE.
 */
function generateGroupRules(
  ctx: GeneratorContext,
  people: Omit<People, 'userIds' | 'assignableUserIds'>,
): void {
  const { state, prng } = ctx;
  const { groupIds, departmentGroupIds } = people;
  if (groupIds.length < 2) return;
  const count = Math.max(1, Math.floor(groupIds.length / 3));
  for (let i = 0; i < count; i++) {
    const status = i % 4 === 3 ? 'INACTIVE' : 'ACTIVE';
    let name: string;
    let expression: string;
    let target: string;
    if (i % 3 === 0 && departmentGroupIds.size > 0) {
      const [department, groupId] = prng.pick([...departmentGroupIds]);
      name = `Assign ${department} by department`;
      expression = `user.department=="${department}"`;
      target = groupId;
    } else if (i % 3 === 1) {
      const [source, destination] = prng.sample(groupIds, 2);
      const sourceName = String((state.groups.get(source)?.data.profile as Json).name);
      name = `Members of ${sourceName} (nested ${i})`;
      expression = `isMemberOfAnyGroup("${source}")`;
      target = destination;
      if (status === 'ACTIVE')
        for (const [userId] of [...(state.groupMembers.peek(source)?.entries() ?? [])])
          state.addMember(destination, userId);
    } else {
      const word = prng.pick(['Manager', 'Director', 'Engineer', 'Analyst']);
      name = `${word}s by title (${i})`;
      expression = `String.stringContains(user.title,"${word}")`;
      target = prng.pick(groupIds);
    }
    const { created, lastUpdated } = ctx.timestamps();
    const data: Json = {
      type: 'group_rule',
      id: ctx.id(ID_PREFIX.groupRule),
      status,
      name,
      created,
      lastUpdated,
      conditions: {
        people: { users: { exclude: [] }, groups: { exclude: [] } },
        expression: { value: expression, type: 'urn:okta:expression:1.0' },
      },
      actions: { assignUserToGroups: { groupIds: [target] } },
      allGroupsValid: true,
    };
    state.groupRules.set(String(data.id), { data });
  }
}

/** Users in every status, the Everyone group, OKTA_GROUP groups with members, and group rules. */
export function generatePeople(ctx: GeneratorContext, sizes: { users: number; groups: number }): People {
  const users = generateUsers(ctx, sizes.users);
  const { userIds, assignable } = users;
  ctx.state.adminUserId = userIds[0] ?? ctx.id(ID_PREFIX.user);
  const groups = generateGroups(ctx, sizes.groups, users);
  generateGroupRules(ctx, groups);
  return { userIds, assignableUserIds: assignable, ...groups };
}
