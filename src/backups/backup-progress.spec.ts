import { describe, expect, it } from '@jest/globals';
import { describeRunning } from './backup-progress.js';

describe('describeRunning', () => {
  it('names up to three types, then counts the rest in English', () => {
    expect(describeRunning(new Set(['user', 'group', 'app', 'policy']), 3, 46)).toBe(
      'Backing up user, group, app and 1 more type (3 of 46 resource types written)',
    );
    expect(describeRunning(new Set(['user', 'group', 'app', 'policy', 'zone']), 3, 46)).toBe(
      'Backing up user, group, app and 2 more types (3 of 46 resource types written)',
    );
  });

  it('names every type when there are three or fewer, and none when none is running', () => {
    expect(describeRunning(new Set(['user']), 45, 46)).toBe(
      'Backing up user (45 of 46 resource types written)',
    );
    expect(describeRunning(new Set(), 46, 46)).toBe('Backing up (46 of 46 resource types written)');
  });
});
