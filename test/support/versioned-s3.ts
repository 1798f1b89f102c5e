import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/** One stored version of a key: an object, or a delete marker (no body). */
interface StoredVersion {
  versionId: string;
  body: Buffer | null;
  etag: string;
  contentType: string;
  lastModified: Date;
}

/** A bucket with versioning enabled, served on loopback (see startVersionedS3). */
export interface VersionedS3 {
  /** `http://127.0.0.1:<port>`: path-style, any credentials */
  endpoint: string;
  bucket: string;
  /** Any non-empty pair: the server checks no signature. */
  accessKeyId: string;
  secretAccessKey: string;
  close(): Promise<void>;
}

/** Ordered as S3 lists them: key, then newest version first (ListObjectVersions). */
type Entry = { key: string; version: StoredVersion; isLatest: boolean };

const xmlEscape = (text: string): string => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const xmlUnescape = (text: string): string =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/**
 * A small S3 server holding one bucket with versioning enabled, for tests of what a delete leaves
 * in such a bucket (s3rver keeps no versions). It follows the Amazon S3 API Reference and the
 * user guide's "Using versioning in S3 buckets" (docs.aws.amazon.com/AmazonS3/latest/API/ and
 * /userguide/Versioning.html) for the calls the S3 driver makes:
 * - PutObject adds a new version and answers its id in `x-amz-version-id`; earlier versions stay.
 * - DeleteObject without `versionId` adds a delete marker (answering `x-amz-delete-marker: true`
 *   and the marker's version id); with `versionId` it removes that version or marker for good.
 * - GetObject / HeadObject read the latest version, or the one `versionId` names; a key whose
 *   latest version is a delete marker answers 404 NoSuchKey with `x-amz-delete-marker: true`.
 *   `Range: bytes=a-b` answers 206, cut short at the object's end; a start past it 416 InvalidRange.
 * - ListObjectsV2 lists the keys whose latest version is not a delete marker, paged by
 *   `continuation-token`.
 * - ListObjectVersions (`GET /?versions`) lists every version and delete marker, by key then
 *   newest first, paged by `key-marker` + `version-id-marker` (NextKeyMarker, NextVersionIdMarker).
 * - DeleteObjects (`POST /?delete`) deletes each `<Object>`: with `<VersionId>` that version,
 *   without it as DeleteObject does; `<Quiet>true</Quiet>` leaves successes out of the answer.
 * Anything else (multipart uploads included) answers 501 NotImplemented, as S3-compatible servers
 * do for calls they lack. Signatures are not checked.
 * @param pageSize the most keys (or versions) one list answer holds, below S3's 1000 to test paging
 */
export async function startVersionedS3(bucket = 'versioned', pageSize = 1000): Promise<VersionedS3> {
  const keys = new Map<string, StoredVersion[]>(); // oldest first
  const newVersionId = () => randomBytes(16).toString('base64url');

  const entries = (prefix: string): Entry[] =>
    [...keys.keys()]
      .filter((key) => key.startsWith(prefix))
      .sort()
      .flatMap((key) =>
        [...keys.get(key)!].reverse().map((version, index) => ({ key, version, isLatest: index === 0 })),
      );

  const addVersion = (key: string, body: Buffer | null, contentType = 'binary/octet-stream') => {
    const version: StoredVersion = {
      versionId: newVersionId(),
      body,
      etag: `"${createHash('md5')
        .update(body ?? '')
        .digest('hex')}"`,
      contentType,
      lastModified: new Date(),
    };
    keys.set(key, [...(keys.get(key) ?? []), version]);
    return version;
  };

  /** Removes one version for good. @returns false when there was none */
  const removeVersion = (key: string, versionId: string): StoredVersion | undefined => {
    const versions = keys.get(key) ?? [];
    const found = versions.find((v) => v.versionId === versionId);
    if (!found) return undefined;
    const rest = versions.filter((v) => v !== found);
    if (rest.length === 0) keys.delete(key);
    else keys.set(key, rest);
    return found;
  };

  const error = (response: http.ServerResponse, status: number, code: string, headers = {}) => {
    response.writeHead(status, { 'Content-Type': 'application/xml', ...headers });
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
    );
  };
  const xml = (response: http.ServerResponse, body: string) => {
    response.writeHead(200, { 'Content-Type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  };

  const listV2 = (url: URL, response: http.ServerResponse) => {
    const prefix = url.searchParams.get('prefix') ?? '';
    const after = url.searchParams.get('continuation-token') ?? '';
    const max = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), pageSize);
    const current = entries(prefix).filter((e) => e.isLatest && e.version.body !== null && e.key > after);
    const page = current.slice(0, max);
    const truncated = current.length > page.length;
    xml(
      response,
      `<ListBucketResult><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount>` +
        `<MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextContinuationToken>${xmlEscape(page.at(-1)!.key)}</NextContinuationToken>` : '') +
        page
          .map(
            ({ key, version }) =>
              `<Contents><Key>${xmlEscape(key)}</Key><LastModified>${version.lastModified.toISOString()}</LastModified>` +
              `<ETag>${xmlEscape(version.etag)}</ETag><Size>${version.body!.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
          )
          .join('') +
        '</ListBucketResult>',
    );
  };

  const listVersions = (url: URL, response: http.ServerResponse) => {
    const prefix = url.searchParams.get('prefix') ?? '';
    const keyMarker = url.searchParams.get('key-marker') ?? '';
    const versionIdMarker = url.searchParams.get('version-id-marker') ?? '';
    const max = Math.min(Number(url.searchParams.get('max-keys') ?? 1000), pageSize);
    const all = entries(prefix);
    // The page starts after the marker: after every version of key-marker when no version id is
    // given, else right after that version of it.
    let start = all.findIndex((e) => e.key > keyMarker);
    if (versionIdMarker) {
      const at = all.findIndex((e) => e.key === keyMarker && e.version.versionId === versionIdMarker);
      if (at >= 0) start = at + 1;
    }
    const rest = start < 0 ? [] : all.slice(start);
    const page = rest.slice(0, max);
    const truncated = rest.length > page.length;
    const last = page.at(-1);
    xml(
      response,
      `<ListVersionsResult><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix>` +
        `<KeyMarker>${xmlEscape(keyMarker)}</KeyMarker><VersionIdMarker>${xmlEscape(versionIdMarker)}</VersionIdMarker>` +
        `<MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        (truncated && last
          ? `<NextKeyMarker>${xmlEscape(last.key)}</NextKeyMarker><NextVersionIdMarker>${last.version.versionId}</NextVersionIdMarker>`
          : '') +
        page
          .map(({ key, version, isLatest }) => {
            const common =
              `<Key>${xmlEscape(key)}</Key><VersionId>${version.versionId}</VersionId><IsLatest>${isLatest}</IsLatest>` +
              `<LastModified>${version.lastModified.toISOString()}</LastModified>`;
            return version.body === null
              ? `<DeleteMarker>${common}</DeleteMarker>`
              : `<Version>${common}<ETag>${xmlEscape(version.etag)}</ETag><Size>${version.body.length}</Size><StorageClass>STANDARD</StorageClass></Version>`;
          })
          .join('') +
        '</ListVersionsResult>',
    );
  };

  const deleteObjects = (body: string, response: http.ServerResponse) => {
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/.test(body);
    const results: string[] = [];
    for (const [, object] of body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)) {
      const key = xmlUnescape(/<Key>([\s\S]*?)<\/Key>/.exec(object)?.[1] ?? '');
      const versionId = /<VersionId>([\s\S]*?)<\/VersionId>/.exec(object)?.[1];
      if (versionId !== undefined) {
        const removed = removeVersion(key, versionId);
        if (!quiet)
          results.push(
            `<Deleted><Key>${xmlEscape(key)}</Key><VersionId>${versionId}</VersionId>` +
              (removed?.body === null
                ? `<DeleteMarker>true</DeleteMarker><DeleteMarkerVersionId>${versionId}</DeleteMarkerVersionId>`
                : '') +
              '</Deleted>',
          );
      } else {
        const marker = addVersion(key, null);
        if (!quiet)
          results.push(
            `<Deleted><Key>${xmlEscape(key)}</Key><DeleteMarker>true</DeleteMarker>` +
              `<DeleteMarkerVersionId>${marker.versionId}</DeleteMarkerVersionId></Deleted>`,
          );
      }
    }
    xml(response, `<DeleteResult>${results.join('')}</DeleteResult>`);
  };

  const readObject = (
    request: http.IncomingMessage,
    url: URL,
    key: string,
    response: http.ServerResponse,
  ) => {
    const versions = keys.get(key) ?? [];
    const versionId = url.searchParams.get('versionId');
    const version = versionId ? versions.find((v) => v.versionId === versionId) : versions.at(-1);
    if (!version) return error(response, 404, versionId ? 'NoSuchVersion' : 'NoSuchKey');
    if (version.body === null)
      return error(response, versionId ? 405 : 404, versionId ? 'MethodNotAllowed' : 'NoSuchKey', {
        'x-amz-delete-marker': 'true',
        'x-amz-version-id': version.versionId,
      });
    const headers = {
      'Content-Type': version.contentType,
      ETag: version.etag,
      'Last-Modified': version.lastModified.toUTCString(),
      'x-amz-version-id': version.versionId,
    };
    let body = version.body;
    let status = 200;
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      if (start >= body.length) return error(response, 416, 'InvalidRange');
      const end = Math.min(range[2] === '' ? body.length - 1 : Number(range[2]), body.length - 1);
      Object.assign(headers, { 'Content-Range': `bytes ${start}-${end}/${body.length}` });
      body = body.subarray(start, end + 1);
      status = 206;
    }
    response.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
    response.end(request.method === 'HEAD' ? undefined : body);
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const [, name, ...rest] = url.pathname.split('/');
      const key = rest.map(decodeURIComponent).join('/');
      const method = request.method ?? 'GET';
      if (name !== bucket) return error(response, 404, 'NoSuchBucket');
      if (key === '') {
        if (method === 'GET' && url.searchParams.has('versions')) return listVersions(url, response);
        if (method === 'GET' && url.searchParams.get('list-type') === '2') return listV2(url, response);
        if (method === 'POST' && url.searchParams.has('delete'))
          return deleteObjects(body.toString('utf8'), response);
        if (method === 'HEAD') return response.writeHead(200).end();
        return error(response, 501, 'NotImplemented');
      }
      if (url.searchParams.has('uploads') || url.searchParams.has('uploadId'))
        return error(response, 501, 'NotImplemented');
      if (method === 'PUT') {
        const version = addVersion(key, body, request.headers['content-type']);
        response.writeHead(200, { ETag: version.etag, 'x-amz-version-id': version.versionId });
        return response.end();
      }
      if (method === 'GET' || method === 'HEAD') return readObject(request, url, key, response);
      if (method === 'DELETE') {
        const versionId = url.searchParams.get('versionId');
        if (versionId) {
          const removed = removeVersion(key, versionId);
          response.writeHead(204, {
            'x-amz-version-id': versionId,
            ...(removed?.body === null ? { 'x-amz-delete-marker': 'true' } : {}),
          });
          return response.end();
        }
        const marker = addVersion(key, null);
        response.writeHead(204, { 'x-amz-delete-marker': 'true', 'x-amz-version-id': marker.versionId });
        return response.end();
      }
      return error(response, 501, 'NotImplemented');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'versioned',
    secretAccessKey: 'versioned-secret',
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
