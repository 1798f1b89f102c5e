/** What the README of a pack names. */
export interface PackReadme {
  team: string;
  from: string;
  to: string;
  generatedAt: string;
  /** where the service publishes the public key of `keyId` */
  keyUrl: string;
  keyId: string;
  /** SHA-256 of the public key's DER SubjectPublicKeyInfo, hex */
  keySha256: string;
}

/**
 * README.txt of an audit pack (docs/export.md): what each file holds and how to check the pack with
 * `openssl` and `sha256sum` alone (OpenSSL 3 verifies Ed25519 with `pkeyutl -rawin`).
 */
export function auditPackReadme(pack: PackReadme): string {
  return `AUDIT PACK
==========

Team:       ${pack.team}
Period:     ${pack.from} to ${pack.to} (both included)
Generated:  ${pack.generatedAt}

WHAT IS IN IT

  backups.csv            every backup of the period: status, timings, size, record count and
                         manifest_sha256, the SHA-256 of the snapshot's manifest as written
  backups.json           the same backups as the API returns them (sha256 = manifest digest)
  restores.json          every restore of the period with its items (each write and its outcome)
  restore-drills.json    verification drills (a snapshot read end to end: every frame decrypted,
                         every digest checked, every record parsed) and restores, as drills
  compliance/<id>.json   for each framework of the plan: findings with evidence, checked on each
                         connection's latest completed backup of the period
  audit-events.jsonl     the team's audit trail of the period, one event a line, newest first
  notifications.json     what the team was notified of, one entry per event with its recipients
  signing-key.pem        the public key the pack is signed with (a copy: trust the published one)
  SHA256SUMS             the SHA-256 of every file above, as sha256sum writes them
  SHA256SUMS.sig         Ed25519 signature of SHA256SUMS
  MANIFEST.json          every file with its SHA-256 and size, the period, the signing key's id
  MANIFEST.json.sig      Ed25519 signature of MANIFEST.json

HOW TO VERIFY IT (openssl 3 and sha256sum; run in the unzipped folder)

1. Fetch the service's public key from the service itself, not from the pack:

     curl -o published-key.pem '${pack.keyUrl}'

   Its SHA-256 fingerprint (of the DER key) must be:

     ${pack.keySha256}

   which you can check with:

     openssl pkey -pubin -in published-key.pem -outform DER | sha256sum

2. Check the two signatures; each must print "Signature Verified Successfully":

     openssl pkeyutl -verify -pubin -inkey published-key.pem -rawin -in SHA256SUMS -sigfile SHA256SUMS.sig
     openssl pkeyutl -verify -pubin -inkey published-key.pem -rawin -in MANIFEST.json -sigfile MANIFEST.json.sig

3. Check every file against the signed digests; each line must end in "OK":

     sha256sum -c SHA256SUMS

4. Check that the pack holds no other file: step 3 checks only the files SHA256SUMS names and
   passes over any other. The ZIP's listing must be exactly the files MANIFEST.json lists, plus
   MANIFEST.json and MANIFEST.json.sig; with unzip and jq, this prints nothing when it is (give
   the name of the ZIP file you received):

     { jq -r '.files[].path' MANIFEST.json; echo MANIFEST.json; echo MANIFEST.json.sig; } | sort > expected.txt
     unzip -Z1 PACK.zip | grep -v '/$' | sort | diff expected.txt -

A file changed, added or removed after the pack was made fails step 2, 3 or 4.
The key id (${pack.keyId}) names the master key the signing key is derived from; after a key
rotation, packs made before it verify against the key published for their own key id.
`;
}
