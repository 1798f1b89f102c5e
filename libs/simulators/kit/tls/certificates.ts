import { createPrivateKey, generateKeyPair, randomBytes, sign } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import forge from 'node-forge';

/** PEM material for an HTTPS server whose certificate a client trusts through `caCertPem`. */
export interface TlsMaterial {
  caCertPem: string;
  caCertPath: string;
  serverCertPem: string;
  serverKeyPem: string;
}

const generateRsa = promisify(generateKeyPair);
const DAY_MS = 86_400_000;

async function rsaKeyPair(): Promise<forge.pki.rsa.KeyPair> {
  // Native key generation is fast; node-forge builds the certificates (signSha256 signs them natively).
  const { privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const forgePrivate = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  return { privateKey: forgePrivate, publicKey: forge.pki.setRsaPublicKey(forgePrivate.n, forgePrivate.e) };
}

/** forge's own TBSCertificate builder (x509.js; missing from its type declarations). */
const getTbsCertificate = (
  forge.pki as unknown as { getTBSCertificate(cert: forge.pki.Certificate): forge.asn1.Asn1 }
).getTBSCertificate;

/**
 * Signs `cert` with `key` exactly as forge's `cert.sign(key, forge.md.sha256.create())` does
 * (sha256WithRSAEncryption: RSASSA-PKCS1-v1_5 over the DER TBSCertificate, RFC 5280 §4.1.1.3,
 * RFC 8017 §8.2, deterministic, so the same signature bytes) with Node's native RSA instead of
 * forge's JavaScript big-number arithmetic: every simulator start signs two certificates, and this
 * took a start's CPU from ~0.15-0.23 s to ~0.09-0.16 s (key generation included) on a loaded machine.
 */
function signSha256(cert: forge.pki.Certificate, key: forge.pki.rsa.PrivateKey): void {
  cert.md = forge.md.sha256.create();
  cert.signatureOid = cert.siginfo.algorithmOid = forge.pki.oids.sha256WithRSAEncryption;
  cert.tbsCertificate = getTbsCertificate(cert);
  const tbs = Buffer.from(forge.asn1.toDer(cert.tbsCertificate).getBytes(), 'binary');
  cert.signature = sign('sha256', tbs, createPrivateKey(forge.pki.privateKeyToPem(key))).toString('binary');
}

function newCertificate(publicKey: forge.pki.PublicKey, validDays: number): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // A positive 128-bit serial (RFC 5280 §4.1.2.2 asks for positive, at most 20 octets).
  cert.serialNumber = `01${randomBytes(16).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - DAY_MS);
  cert.validity.notAfter = new Date(Date.now() + validDays * DAY_MS);
  return cert;
}

function caCertificate(keys: forge.pki.rsa.KeyPair): forge.pki.Certificate {
  const cert = newCertificate(keys.publicKey, 3650);
  const subject = [{ name: 'commonName', value: 'Okta Simulator Test CA' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  signSha256(cert, keys.privateKey);
  return cert;
}

function serverCertificate(
  keys: forge.pki.rsa.KeyPair,
  ca: forge.pki.Certificate,
  caKey: forge.pki.rsa.PrivateKey,
) {
  const cert = newCertificate(keys.publicKey, 365);
  cert.setSubject([{ name: 'commonName', value: 'localhost' }]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 7, ip: '::1' },
        { type: 2, value: 'localhost' },
      ],
    },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.generateSubjectKeyIdentifier().getBytes() },
  ]);
  signSha256(cert, caKey);
  return cert;
}

/**
 * A CA and a server certificate it signed (SAN 127.0.0.1, ::1, localhost), written to
 * `dir` as `ca-cert.pem`, `ca-key.pem`, `server-cert.pem`, `server-key.pem`. When `dir`
 * already holds a CA, it is reused (clients configured with it keep trusting the simulator)
 * and only a new server certificate is issued.
 */
export async function issueTlsMaterial(dir: string): Promise<TlsMaterial> {
  const caCertPath = join(dir, 'ca-cert.pem');
  const caKeyPath = join(dir, 'ca-key.pem');
  let ca: forge.pki.Certificate;
  let caKey: forge.pki.rsa.PrivateKey;
  const [serverKeys, newCaKeys] = await Promise.all([
    rsaKeyPair(),
    existsSync(caCertPath) && existsSync(caKeyPath) ? undefined : rsaKeyPair(),
  ]);
  if (newCaKeys) {
    ca = caCertificate(newCaKeys);
    caKey = newCaKeys.privateKey;
    await writeFile(caCertPath, forge.pki.certificateToPem(ca));
    await writeFile(caKeyPath, forge.pki.privateKeyToPem(caKey), { mode: 0o600 });
  } else {
    ca = forge.pki.certificateFromPem(await readFile(caCertPath, 'utf8'));
    caKey = forge.pki.privateKeyFromPem(await readFile(caKeyPath, 'utf8')) as forge.pki.rsa.PrivateKey;
  }
  const server = serverCertificate(serverKeys, ca, caKey);
  const material: TlsMaterial = {
    caCertPem: forge.pki.certificateToPem(ca),
    caCertPath,
    serverCertPem: forge.pki.certificateToPem(server),
    serverKeyPem: forge.pki.privateKeyToPem(serverKeys.privateKey),
  };
  await writeFile(join(dir, 'server-cert.pem'), material.serverCertPem);
  await writeFile(join(dir, 'server-key.pem'), material.serverKeyPem, { mode: 0o600 });
  return material;
}

/**
 * A self-signed RSA certificate and its private key (PKCS#8), both PEM: what an admin uploads to
 * an app registration and keeps for client assertions (Microsoft identity platform "certificate
 * credentials"; `New-SelfSignedCertificate` makes the same).
 */
export async function selfSignedCertificate(
  commonName: string,
  validDays = 365,
): Promise<{ certificatePem: string; privateKeyPem: string }> {
  const keys = await rsaKeyPair();
  const cert = newCertificate(keys.publicKey, validDays);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, critical: true },
  ]);
  signSha256(cert, keys.privateKey);
  const privateKeyPem = forge.pki.privateKeyInfoToPem(
    forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keys.privateKey)),
  );
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem };
}
