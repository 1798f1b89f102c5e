import fc from 'fast-check';

/** The parts of an OpenAPI 3.1 schema the fuzzer reads. */
export interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  $ref?: string;
}

/** One operation of the OpenAPI document, its `$ref`s resolved. */
export interface Operation {
  method: string;
  /** OpenAPI template: `/api/connections/{id}`. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema; required?: boolean }>;
  body?: Schema;
  /** Fields of an `application/x-www-form-urlencoded` body, for routes that take forms. */
  formFields?: string[];
}

/** Who sends the requests, and the ids of what they own. */
export interface FuzzCaller {
  /** A bearer token of the team's most powerful role. */
  token: string;
  /** The service's origin, for routes that check `Origin` (SameOriginGuard). */
  origin: string;
  /** Real ids of the team (connection, backup, restore), for uuid fields to reach the database. */
  ids: readonly string[];
}

/** One request as sent: a path and query already percent-encoded (or deliberately not). */
export interface FuzzRequest {
  method: string;
  /** Path and query, ready to append to the base URL. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}
interface OpenApiOperation {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

/** Every operation of an OpenAPI document, with the schemas of its parameters and JSON body. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref ? document.components?.schemas?.[schema.$ref.split('/').pop()!] : schema;
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(p.schema) ?? {}, required: p.required })),
        body: resolve(operation.requestBody?.content?.['application/json']?.schema),
      };
    }),
  );
}

/** Any UTF-16 code unit, NUL and unpaired surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));

/** Text that has broken parsers and databases before. */
const HOSTILE_TEXTS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '\ud83d\ude00',
  '%',
  '%00',
  '..',
  '"',
  "'; select pg_sleep(1); --",
  '\\',
  '\u202e',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  'NaN',
  '-0',
  '0x10',
  '1e309',
  'null',
  'true',
  '[]',
  '{}',
];

/** Text that has broken parsers and databases before, and random text of any code units. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXTS),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Numbers at and past every bound the API or PostgreSQL has (int, bigint, 2^53, doubles). */
function integerBoundaries(schema: Schema): string[] {
  const bounds = [schema.minimum, schema.maximum].filter((n): n is number => n !== undefined);
  return [
    ...bounds.flatMap((n) => [n - 1, n, n + 1]).map(String),
    '0',
    '-1',
    '1.5',
    '2147483648',
    '9007199254740992',
    '9223372036854775808',
    '100000000000000000000',
    '-100000000000000000000',
    '1e20',
    '1.7976931348623157e308',
    'Infinity',
    '9'.repeat(400),
  ];
}

/** integerBoundaries, mostly, and random integers and doubles. */
function integerText(schema: Schema): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...integerBoundaries(schema)), weight: 4 },
    { arbitrary: fc.integer().map(String), weight: 1 },
    { arbitrary: fc.double().map(String), weight: 1 },
  );
}

/** Timestamps inside and outside what JS dates and PostgreSQL's timestamptz hold. */
const TIMESTAMP_BOUNDARIES = [
  '-200000-01-01T00:00:00Z',
  '-004714-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00Z',
  '+294277-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-01-01',
  '1',
  'yesterday',
];

/** TIMESTAMP_BOUNDARIES, mostly, and any instant JS dates hold. */
const timestampText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...TIMESTAMP_BOUNDARIES), weight: 4 },
  {
    arbitrary: fc
      .date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true })
      .map((date) => date.toISOString()),
    weight: 1,
  },
);

/** A value a client would send for a parameter of this schema, as text. */
function plausibleText(schema: Schema, ids: readonly string[]): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map(String));
  const uuid = fc.uuid({ version: 4 });
  if (schema.format === 'uuid') return ids.length > 0 ? fc.oneof(fc.constantFrom(...ids), uuid) : uuid;
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? 0;
    return fc.integer({ min, max: Math.min(schema.maximum ?? min + 1000, min + 1000) }).map(String);
  }
  if (schema.type === 'boolean') return fc.constantFrom('true', 'false');
  if (schema.type === 'array') return fc.constantFrom('user', 'group', 'user,group', 'users,apps');
  return fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 });
}

/** A value for a parameter of this schema at or past its bounds, of another form, or hostile. */
function hostileParameterText(schema: Schema): fc.Arbitrary<string> {
  const values: Array<fc.Arbitrary<string>> = [hostileText];
  if (schema.type === 'integer' || schema.type === 'number')
    values.push(integerText(schema), integerText(schema));
  if (schema.format === 'date-time') values.push(timestampText, timestampText);
  return fc.oneof(...values);
}

/** Any JSON value, a little deep and with hostile strings and numbers past every bound. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, 1e20, -1e20, 1e308),
    fc.integer(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A value a client would send for a body field of this schema. */
function plausibleValue(schema: Schema, ids: readonly string[]): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.type === 'integer' || schema.type === 'number') return plausibleText(schema, ids).map(Number);
  if (schema.type === 'boolean') return fc.boolean();
  if (schema.type === 'array')
    return fc.array(schema.items?.type === 'string' ? fc.constantFrom('user', 'group', 'app') : anyJson, {
      maxLength: 3,
    });
  if (schema.properties) return fieldsOf(schema, plausibleValue, hostileValue, ids);
  return plausibleText(schema, ids);
}

/** A value for a body field of this schema at or past its bounds, of another type, or hostile. */
function hostileValue(schema: Schema): fc.Arbitrary<unknown> {
  const values: Array<fc.Arbitrary<unknown>> = [anyJson, hostileText];
  if (schema.type === 'integer' || schema.type === 'number')
    values.push(integerText(schema).map(Number), integerText(schema));
  if (schema.format === 'date-time') values.push(timestampText);
  if (schema.type === 'array')
    values.push(fc.array(hostileValue(schema.items ?? {}), { minLength: 1, maxLength: 3 }));
  return fc.oneof(...values);
}

/**
 * The fields of an object (query parameters or a JSON body): the required ones and up to two of
 * the others with plausible values, then, most of the time, one field made hostile. One at a
 * time, because validation refuses a request at its first bad field: a hostile value only
 * reaches the code behind validation (services, the database) when its neighbours are sound.
 */
function fieldsOf<T>(
  schema: Schema,
  plausible: (field: Schema, ids: readonly string[]) => fc.Arbitrary<T>,
  hostile: (field: Schema) => fc.Arbitrary<T>,
  ids: readonly string[],
): fc.Arbitrary<Record<string, T>> {
  const fields = Object.entries(schema.properties ?? {});
  if (fields.length === 0) return fc.constant({});
  const required = new Set(schema.required ?? []);
  const optional = fields.map(([name]) => name).filter((name) => !required.has(name));
  const values = fc.record(Object.fromEntries(fields.map(([name, field]) => [name, plausible(field, ids)])));
  const change = fc.option(
    fc.constantFrom(...fields).chain(([name, field]) => fc.tuple(fc.constant(name), hostile(field))),
    { freq: 5 },
  );
  return fc
    .tuple(values, fc.subarray(optional, { maxLength: Math.min(2, optional.length) }), change)
    .map(([all, chosen, mutation]) => {
      const sent = Object.fromEntries(
        Object.entries(all).filter(([name]) => required.has(name) || chosen.includes(name)),
      );
      return mutation ? { ...sent, [mutation[0]]: mutation[1] } : sent;
    });
}

/** A body as sent: JSON of the schema, JSON of anything, or what a JSON route must refuse. */
function bodyOf(schema: Schema | undefined, ids: readonly string[]) {
  const json = (value: unknown) => ({ type: 'application/json', body: JSON.stringify(value) });
  return fc.oneof(
    {
      arbitrary: (schema ? fieldsOf(schema, plausibleValue, hostileValue, ids) : anyJson).map(json),
      weight: 8,
    },
    { arbitrary: anyJson.map(json), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        { type: 'application/json', body: `{"x":${'['.repeat(2000)}${']'.repeat(2000)}}` },
        { type: 'application/json', body: '{"a":' },
        { type: 'application/json', body: '"\\u0000"' },
        { type: 'application/json', body: '{"a":"\\ud800"}' },
        { type: 'application/json; charset=utf-16le', body: '{}' },
        { type: 'application/json; charset=latin1', body: '{}' },
        { type: 'text/plain', body: '{}' },
        { type: 'application/x-www-form-urlencoded', body: 'a=b' },
        { type: 'multipart/form-data; boundary=x', body: '--x--' },
        { type: '', body: '{}' },
      ),
      weight: 1,
    },
  );
}

/** Percent-encodes text as UTF-8 (an unpaired surrogate becomes U+FFFD, as a browser sends it). */
function encode(text: string): string {
  return [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** A form body of these fields, each present or not, with hostile values. */
function formOf(fields: readonly string[]) {
  const entries = fields.map((name) =>
    fc.option(
      hostileText.map((value) => `${name}=${encode(value)}`),
      { nil: undefined },
    ),
  );
  return fc.tuple(...entries).map((present) => ({
    type: 'application/x-www-form-urlencoded',
    body: present.filter((entry) => entry !== undefined).join('&'),
  }));
}

/** Percent-escapes as sent by a hostile client rather than a browser: NUL, bad UTF-8, malformed. */
const rawEscape = fc.constantFrom('%00', '%ED%A0%80', '%FF', '%ZZ', '%', '%C0%80', '%2F', '%2e%2e');

/** Mostly true: a request a client would make, so that the other parts decide the answer. */
const usually = fc.oneof(
  { arbitrary: fc.constant(true), weight: 9 },
  { arbitrary: fc.constant(false), weight: 1 },
);

/**
 * Requests to one operation: its path parameters, query parameters and body fields drawn as
 * `fieldsOf` says (plausible, one made hostile), now and then an unknown parameter, a raw
 * escape or a body a JSON route must refuse; usually with the bearer token and the `Origin`
 * of the service.
 */
export function requestTo(operation: Operation, caller: FuzzCaller) {
  const { ids } = caller;
  const pathValue = fc.oneof(
    { arbitrary: plausibleText({ format: 'uuid' }, ids).map(encode), weight: 8 },
    { arbitrary: hostileText.map(encode), weight: 1 },
    { arbitrary: rawEscape.map((escape) => `a${escape}b`), weight: 1 },
  );
  const querySchema: Schema = {
    properties: Object.fromEntries(operation.query.map(({ name, schema }) => [name, schema])),
    required: operation.query.filter((parameter) => parameter.required).map(({ name }) => name),
  };
  const extraQuery = fc.oneof(
    fc.tuple(hostileText, hostileText).map(([key, value]) => `${encode(key)}=${encode(value)}`),
    rawEscape.map((escape) => `search=${escape}`),
  );
  const body = operation.formFields
    ? fc.oneof(formOf(operation.formFields), bodyOf(undefined, ids))
    : operation.body || operation.method !== 'GET'
      ? fc.option(bodyOf(operation.body, ids), { freq: 8 })
      : fc.constant(null);
  return fc
    .record({
      path: fc.tuple(...operation.pathParams.map(() => pathValue)),
      query: fieldsOf(querySchema, plausibleText, hostileParameterText, ids),
      extraQuery: fc.option(extraQuery, { freq: 9 }),
      body,
      authenticated: usually,
      sameOrigin: usually,
    })
    .map(({ path, query, extraQuery: extra, body: sent, authenticated, sameOrigin }): FuzzRequest => {
      let target = operation.path;
      operation.pathParams.forEach((name, index) => (target = target.replace(`{${name}}`, path[index])));
      const pairs = Object.entries(query).map(([key, value]) => `${key}=${encode(value)}`);
      if (extra) pairs.push(extra);
      if (pairs.length > 0) target += `?${pairs.join('&')}`;
      const headers: Record<string, string> = {};
      if (authenticated) headers.Authorization = `Bearer ${caller.token}`;
      if (sameOrigin) headers.Origin = caller.origin;
      if (sent?.type) headers['Content-Type'] = sent.type;
      return {
        method: operation.method,
        target,
        headers,
        body: sent?.type.includes('utf-16') ? Buffer.from(sent.body, 'utf16le') : sent?.body,
      };
    });
}

/** The values of a field's boundary sweep, as text: hostile text, then its type's bounds. */
function boundaryTexts(schema: Schema): string[] {
  const texts = [...HOSTILE_TEXTS];
  if (schema.type === 'integer' || schema.type === 'number') texts.push(...integerBoundaries(schema));
  if (schema.format === 'date-time') texts.push(...TIMESTAMP_BOUNDARIES);
  return texts;
}

/** One value a client would send for a field, the same every time (the first of `ids` for a uuid). */
function typicalText(schema: Schema, ids: readonly string[]): string {
  if (schema.enum) return String(schema.enum[0]);
  if (schema.format === 'uuid') return ids[0];
  if (schema.format === 'date-time') return '2024-01-01T00:00:00.000Z';
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 0);
  if (schema.type === 'boolean') return 'true';
  return 'user';
}

function typicalValue(schema: Schema, ids: readonly string[]): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 0;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [typicalText(schema.items ?? {}, ids)];
  return typicalText(schema, ids);
}

/**
 * The boundary sweep of one operation: for each query parameter and body field in turn, each of
 * its boundary values (boundaryTexts; in a body also as a number, and `null`, `[]`, `{}`), beside
 * typical values of the required fields, with the token and the service's `Origin`. Exhaustive
 * where the random cases of requestTo only sample.
 * @param pathId the id in every path parameter: one the route finds, for the sweep to go past it.
 */
export function boundaryRequests(operation: Operation, caller: FuzzCaller, pathId: string): FuzzRequest[] {
  const { ids } = caller;
  const path = operation.path.replace(/\{\w+\}/g, pathId);
  const headers = { Authorization: `Bearer ${caller.token}`, Origin: caller.origin };
  const requiredQuery = operation.query.filter((parameter) => parameter.required);
  const query = (overrides: Record<string, string>): string => {
    const values = Object.fromEntries(
      requiredQuery.map(({ name, schema }) => [name, typicalText(schema, ids)]),
    );
    const pairs = Object.entries({ ...values, ...overrides }).map(
      ([key, value]) => `${key}=${encode(value)}`,
    );
    return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
  };
  const requests: FuzzRequest[] = operation.query.flatMap(({ name, schema }) =>
    boundaryTexts(schema).map((text) => ({
      method: operation.method,
      target: query({ [name]: text }),
      headers,
      body: operation.body ? '{}' : undefined,
    })),
  );
  const body = operation.body;
  if (!body?.properties) return requests;
  const typical = Object.fromEntries(
    (body.required ?? []).map((name) => [name, typicalValue(body.properties![name] ?? {}, ids)]),
  );
  for (const [name, field] of Object.entries(body.properties)) {
    const texts = boundaryTexts(field);
    const values: unknown[] = [...texts, ...texts.map(Number).filter(Number.isFinite), null, [], {}, [texts]];
    for (const value of values)
      requests.push({
        method: operation.method,
        target: query({}),
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...typical, [name]: value }),
      });
  }
  return requests;
}
