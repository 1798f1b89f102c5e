import { describe, expect, it } from '@jest/globals';
import { addLogFields, currentLogFields, payloadLogFields, runWithLogFields } from './log-context.js';

describe('log context', () => {
  it('keeps a job’s fields through awaits and lets it add the ids it learns', async () => {
    const seen = await runWithLogFields({ job_id: 'j1' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      addLogFields({ connection_id: 'c1' });
      await Promise.resolve();
      return currentLogFields();
    });
    expect(seen).toEqual({ job_id: 'j1', connection_id: 'c1' });
    expect(currentLogFields()).toBeUndefined();
  });

  it('keeps two concurrent jobs apart, and a nested run sees the outer fields', async () => {
    const [a, b] = await Promise.all([
      runWithLogFields({ job_id: 'a' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return runWithLogFields({ step: 'inner' }, () => currentLogFields());
      }),
      runWithLogFields({ job_id: 'b' }, async () => {
        addLogFields({ backup_id: 'x' });
        return currentLogFields();
      }),
    ]);
    expect(a).toEqual({ job_id: 'a', step: 'inner' });
    expect(b).toEqual({ job_id: 'b', backup_id: 'x' });
  });

  it('takes the string ids of a payload in snake_case, and nothing else', () => {
    expect(payloadLogFields({ backupId: 'b1', restoreId: 'r1', now: 'n', count: 3, teamId: 7 })).toEqual({
      backup_id: 'b1',
      restore_id: 'r1',
    });
    expect(payloadLogFields(null)).toEqual({});
    expect(payloadLogFields({ Id: 'x' })).toEqual({});
  });

  it('does nothing when a field is added outside a job', () => {
    addLogFields({ job_id: 'stray' });
    expect(currentLogFields()).toBeUndefined();
  });
});
