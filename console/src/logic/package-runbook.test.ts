import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { htmlAsText, runbookOf } from './package-runbook';

describe('runbookOf', () => {
  it('reads RUNBOOK.md out of a package, UTF-8', () => {
    const zip = zipSync({
      'restore.folder': strToU8('{"type":"flopack"}'),
      'tables/Leavers.csv': strToU8('Login\r\nada@example.com\r\n'),
      'RUNBOOK.md': strToU8('# Re-import runbook\n\nTurn “Offboard leaver” back on.\n'),
    });
    expect(runbookOf(zip)).toBe('# Re-import runbook\n\nTurn “Offboard leaver” back on.\n');
  });

  it('answers null for a package without a runbook, and throws for what is no ZIP', () => {
    expect(runbookOf(zipSync({ 'restore.folder': strToU8('{}') }))).toBeNull();
    expect(() => runbookOf(strToU8('not a zip'))).toThrow();
  });
});

describe('htmlAsText', () => {
  it('turns raw HTML nodes at any depth into text, keeping their characters', () => {
    const tree = {
      type: 'root',
      children: [
        { type: 'html', value: '<script>alert(1)</script>' },
        { type: 'paragraph', children: [{ type: 'html', value: '<img src=x onerror=alert(1)>' }] },
      ],
    };
    htmlAsText()(tree);
    expect(tree).toEqual({
      type: 'root',
      children: [
        { type: 'text', value: '<script>alert(1)</script>' },
        { type: 'paragraph', children: [{ type: 'text', value: '<img src=x onerror=alert(1)>' }] },
      ],
    });
  });
});
