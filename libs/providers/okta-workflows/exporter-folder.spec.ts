import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';

import { parseFlopack } from './flopack.js';
import { isApiEndpointFlow } from './flow-cards.js';
import { recordsOfFlopack } from './workflow-records.js';

const FILE = new URL('../../../workflows/idp-backup-exporter.folder', import.meta.url);

/** The exporter folder the project ships (docs/okta-workflows.md, "Import the exporter folder"). */
describe('workflows/idp-backup-exporter.folder', () => {
  const sut = parseFlopack(JSON.parse(readFileSync(FILE, 'utf8')));

  it('is a flopack of one folder, one API endpoint flow and its table helper, with no connection', () => {
    const records = recordsOfFlopack(sut);
    expect(records.workflow_folder.map((r) => r.name)).toEqual(['Backup exporter']);
    expect(records.workflow_connection).toEqual([]);
    const endpoints = Object.values(sut.data.flos).filter(isApiEndpointFlow);
    expect(endpoints.map((flo) => flo.name)).toEqual(['Export folder for backup']);
    expect(records.workflow).toHaveLength(2);
  });

  it('runs Export Folder in the endpoint flow and Export to CSV in the helper', () => {
    const addresses = Object.values(sut.data.flos).flatMap((flo) =>
      (flo.data.methods ?? []).map((m) => m.address),
    );
    expect(addresses).toEqual(
      expect.arrayContaining([
        'root:kernel:folders:0.0.1:exportFolder',
        'root:kernel:stash:0.0.1:exportToCsv',
      ]),
    );
  });

  it('keeps every flow in the folder it ships', () => {
    const [folder] = Object.keys(sut.data.groups);
    for (const flo of Object.values(sut.data.flos)) expect(flo.data.group).toBe(folder);
  });
});
