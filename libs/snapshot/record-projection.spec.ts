import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';

import { recordLine } from './encoded-records.js';
import { DataProjection, projectRecord } from './record-projection.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';

const project = (line: string, fields: string[], type = 'app_user_assignment') => {
  const text = Buffer.from(`${line}\n`, 'utf8');
  return projectRecord(text, 0, text.length - 1, type, new DataProjection(type, fields));
};

/**
 * `data`'s members named by dotted `paths`, from JSON.parse of the whole line: a path's first
 * step picks a member; its rest picks inside it when it is an object (and no shorter path takes
 * the member whole).
 */
function picked(data: Record<string, unknown>, paths: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of new Set(paths.map((path) => path.split('.')[0]))) {
    if (!Object.hasOwn(data, field)) continue;
    const value = data[field];
    const rests = paths
      .filter((path) => path.startsWith(`${field}.`))
      .map((path) => path.slice(field.length + 1));
    const whole = paths.includes(field);
    const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
    out[field] = whole || !isObject ? value : picked(value as Record<string, unknown>, rests);
  }
  return out;
}

/** A line as SnapshotWriter writes it when it keeps the provider's own text of `data`. */
const lineWithText = (id: string, name: string | null, dataText: string) =>
  `{"type":"app_user_assignment","id":${JSON.stringify(id)},"name":${JSON.stringify(name)},"data":${dataText}}`;

describe('projectRecord', () => {
  it('gives the wanted members of any JSON object, as parsing the whole line does', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.string(),
        fc.option(fc.string()),
        fc.array(fc.string(), { maxLength: 4 }),
        (data, id, name, extra) => {
          // Every other member whole, and one member inside each object member (member names
          // holding a dot cannot be named by a path: Okta's never do).
          const plain = (key: string) => !key.includes('.');
          const nested = Object.entries(data).flatMap(([key, value]) => {
            const inner =
              typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : [];
            return plain(key) && inner.length > 0 && plain(inner[0]) ? [`${key}.${inner[0]}`] : [];
          });
          const fields = [...Object.keys(data).filter((_, i) => i % 2 === 0), ...extra]
            .filter(plain)
            .concat(nested);
          const line = recordLine({ type: 'app_user_assignment', id, name, data });
          const record = project(line, fields);
          // JSON.stringify drops -0's sign; compare with what a full parse gives.
          const whole = JSON.parse(line) as { data: Record<string, unknown> };
          expect(record).toEqual({ type: 'app_user_assignment', id, name, data: picked(whole.data, fields) });
        },
      ),
      { seed: 26, numRuns: 500 },
    );
  });

  it("reads a provider's text with insignificant whitespace and escaped keys (RFC 8259 section 2)", () => {
    const text =
      '{ "id" : "00u1" ,\t"sc\\u006fpe": "GROUP", "profile": {"note": "a \\"}\\" b", "list": [1, {"x": "]"}]}, "status" :true }';
    expect(project(lineWithText('0oa1:00u1', 'Zoë', text), ['scope', 'status']).data).toEqual({
      scope: 'GROUP',
      status: true,
    });
    expect(project(lineWithText('0oa1:00u1', null, text), ['profile']).data).toEqual({
      profile: { note: 'a "}" b', list: [1, { x: ']' }] },
    });
    expect(
      project(lineWithText('0oa1:00u1', null, text), ['profile.list', 'profile.none', 'status']).data,
    ).toEqual({ profile: { list: [1, { x: ']' }] }, status: true });
    // A path and one below it: the member whole.
    expect(project(lineWithText('0oa1:00u1', null, text), ['profile.list', 'profile']).data).toEqual({
      profile: { note: 'a "}" b', list: [1, { x: ']' }] },
    });
  });

  it('stops at the last wanted member: an empty projection reads only the id and name', () => {
    const line = '{"type":"app_user_assignment","id":"0oa1:00u\\u00e9","name":"n","data":{"id": broken}';
    const record = project(line, []);
    expect(record).toEqual({ type: 'app_user_assignment', id: '0oa1:00ué', name: 'n', data: {} });
  });

  it('refuses a line of another type or shape with SnapshotIntegrityError', () => {
    const data = '{"scope":"USER"}';
    expect(() => project(lineWithText('a', 'b', data), ['scope'], 'user')).toThrow(SnapshotIntegrityError);
    expect(() => project('{"type":"app_user_assignment","id":7,"name":null,"data":{}}', [])).toThrow(
      SnapshotIntegrityError,
    );
    expect(() => project(lineWithText('a', 'b', '{"scope":"USER",'), ['status'])).toThrow(
      SnapshotIntegrityError,
    );
    expect(() => project(lineWithText('a', 'b', '{"scope":"US'), ['scope'])).toThrow(SnapshotIntegrityError);
  });
});
