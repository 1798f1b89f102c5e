import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { ProviderError } from '@libs/providers/provider-errors.js';

import { parseFlopack } from './flopack.js';
import { assertionKeyOf } from './signing-key.js';
import { csvRows, parseCsv, toCsv } from './table-csv.js';
import { workflowsChangeOf } from './workflows-changes.js';
import { workflowsOrigin } from './workflows-host.js';

describe('workflowsOrigin', () => {
  it.each([
    ['https://acme.okta.com', 'https://acme.workflows.okta.com'],
    ['https://acme.oktapreview.com', 'https://acme.workflows.oktapreview.com'],
    ['https://acme.okta-emea.com', 'https://acme.workflows.okta-emea.com'],
    ['https://127.0.0.1:8443', 'https://127.0.0.1:8443'],
  ])('%s -> %s', (org, expected) => {
    expect(workflowsOrigin(org)).toBe(expected);
  });

  it('refuses an admin or nested Okta host', () => {
    expect(() => workflowsOrigin('https://acme-admin.okta.com')).toThrow(ProviderError);
    expect(() => workflowsOrigin('https://a.b.okta.com')).toThrow(ProviderError);
  });
});

describe('assertionKeyOf', () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('takes a PKCS#8 or PKCS#1 PEM and signs RS256', () => {
    const pkcs8 = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const pkcs1 = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(assertionKeyOf(pkcs8)).toEqual({ privateKeyPem: pkcs8, alg: 'RS256', keyId: undefined });
    expect(assertionKeyOf(pkcs1)).toMatchObject({ privateKeyPem: pkcs8, alg: 'RS256' });
  });

  it('takes a private JWK, its kid naming the key, and a P-256 key as ES256', () => {
    const jwk = { ...rsa.privateKey.export({ format: 'jwk' }), kid: 'k1' };
    expect(assertionKeyOf(JSON.stringify(jwk))).toMatchObject({ alg: 'RS256', keyId: 'k1' });
    const pem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(assertionKeyOf(pem).alg).toBe('ES256');
  });

  it('refuses a public key, text that is no key, and another curve, without echoing it', () => {
    const publicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    for (const bad of [publicPem, 'not a key', JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' })]) {
      const error = (() => {
        try {
          assertionKeyOf(bad);
        } catch (caught) {
          return caught as ProviderError;
        }
        throw new Error('accepted');
      })();
      expect(error.code).toBe('invalid_private_key');
      expect(error.message).not.toContain(bad.slice(0, 20));
    }
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    expect(() => assertionKeyOf(p384.export({ type: 'pkcs8', format: 'pem' }).toString())).toThrow(/P-256/);
  });
});

describe('table CSV', () => {
  it('reads RFC 4180 quoting (commas, doubled quotes, line breaks) and writes it back', () => {
    const text = 'Login,Note\r\n"a,b@x.com","say ""hi""\nthere"\r\nc@x.com,';
    expect(parseCsv(text)).toEqual([
      ['Login', 'Note'],
      ['a,b@x.com', 'say "hi"\nthere'],
      ['c@x.com', ''],
    ]);
    const rows = csvRows(text);
    expect(rows).toEqual([
      { Login: 'a,b@x.com', Note: 'say "hi"\nthere' },
      { Login: 'c@x.com', Note: '' },
    ]);
    expect(toCsv(['Login', 'Note'], rows)).toBe(text);
  });
});

describe('parseFlopack', () => {
  const pack = (data: Record<string, unknown>) => ({
    type: 'flopack',
    version: '1.5.0',
    data: { flos: {}, ...data },
  });

  it('takes an export with defaults for the sections a .flow leaves out', () => {
    expect(parseFlopack(pack({})).data).toEqual({ flos: {}, configs: {}, tables: {}, groups: {} });
  });

  it('refuses another document, an entry under another id, and a connection carrying data', () => {
    expect(() => parseFlopack({ type: 'folder' })).toThrow(/Not an Okta Workflows export/);
    expect(() => parseFlopack(pack({ groups: { g1: { id: 'g2', data: { name: 'x' } } } }))).toThrow(
      /data\.groups\.g1 has id g2/,
    );
    expect(() =>
      parseFlopack(
        pack({ configs: { c1: { id: 'c1', name: 'Slack', module: 'slack', data: { token: 't' } } } }),
      ),
    ).toThrow(/connection data for Slack/);
  });
});

describe('workflowsChangeOf', () => {
  const event = (eventType: string) => ({ eventType, published: '2026-11-27T00:00:00.000Z' });

  it('counts changes, high when a flow, folder, table or connection goes', () => {
    expect(workflowsChangeOf(event('workflows.user.flow.save'))?.severity).toBe('medium');
    expect(workflowsChangeOf(event('workflows.user.flow.delete'))?.severity).toBe('high');
    expect(workflowsChangeOf(event('workflows.user.connection.revoke'))?.severity).toBe('high');
  });

  it('leaves out what changes nothing and other products', () => {
    for (const type of [
      'workflows.user.folder.export',
      'workflows.user.table.view',
      'workflows.user.table.schema.export',
      'workflows.user.flow.execution.cancel',
      'workflows.user.delegatedflow.run',
      'user.lifecycle.create',
    ])
      expect(workflowsChangeOf(event(type))).toBeNull();
  });
});
