import { readFile } from 'node:fs/promises';

import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'yaml';

type Node = Record<string, unknown>;

// ajv-formats is CommonJS; under ESM its function arrives as `default` (or as the module itself).
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const DOCUMENT_ID = 'okta-management';

/**
 * OpenAPI 3.0 `oneOf` + `discriminator.mapping` -> one `if/then` per mapped value, so a
 * document validates against the subschema its discriminator names (plain `oneOf` fails when
 * several subtypes happen to accept the same object). A discriminator without `oneOf` (on a
 * base schema that subtypes `allOf`) is dropped: resolving it would recurse forever.
 */
function rewriteDiscriminators(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(rewriteDiscriminators);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Node;
  for (const value of Object.values(schema)) rewriteDiscriminators(value);
  const discriminator = schema.discriminator as
    { propertyName: string; mapping?: Record<string, string> } | undefined;
  if (!discriminator) return;
  delete schema.discriminator;
  if (!Array.isArray(schema.oneOf) || !discriminator.mapping) return;
  const property = discriminator.propertyName;
  delete schema.oneOf;
  schema.required = [...((schema.required as string[] | undefined) ?? []), property];
  schema.properties = {
    ...(schema.properties as Node | undefined),
    [property]: { enum: Object.keys(discriminator.mapping) },
  };
  schema.allOf = Object.entries(discriminator.mapping).map(([value, ref]) => ({
    if: { properties: { [property]: { const: value } }, required: [property] },
    then: { $ref: ref },
  }));
}

/**
 * Removes `example(s)`: they are not schemas, and some hold `$id`s like
 * `http://{yourOktaDomain}/...` that ajv would try to resolve. Properties that happen to be
 * named `example` (keys under `properties`) are kept.
 */
function stripExamples(node: unknown, parentKey = ''): void {
  if (Array.isArray(node)) {
    for (const item of node) stripExamples(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Node;
  for (const key of Object.keys(object)) {
    if (parentKey !== 'properties' && (key === 'example' || key === 'examples')) delete object[key];
    else stripExamples(object[key], key);
  }
}

/**
 * OpenAPI 3.0 allows `nullable: true` beside `$ref`/`allOf` without `type`, which ajv refuses:
 * such a schema becomes `anyOf: [null, the schema]`.
 */
function rewriteUntypedNullables(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(rewriteUntypedNullables);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Node;
  for (const value of Object.values(schema)) rewriteUntypedNullables(value);
  if (!('nullable' in schema) || 'type' in schema) return;
  const { nullable, ...rest } = schema;
  for (const key of Object.keys(schema)) delete schema[key];
  if (nullable === true) schema.anyOf = [{ type: 'null' }, rest];
  else Object.assign(schema, rest);
}

/**
 * Properties the description types as non-null that recorded Okta answers hold as `null`
 * (../shared/fixtures/okta/vcr): the recording is what Okta does, so they validate as nullable.
 */
const RECORDED_NULLS: ReadonlyArray<{ schema: string; property: string; recorded: string }> = [
  {
    schema: 'GroupOwner',
    property: 'originId',
    recorded: 'every recorded group owner from the directory answers "originId":null',
  },
  {
    schema: 'Brand',
    property: 'customPrivacyPolicyUrl',
    recorded: 'createBrand answers "customPrivacyPolicyUrl":null (the description\'s own `default: null`)',
  },
  ...['appInstanceId', 'appLinkName', 'classicApplicationUri'].map((property) => ({
    schema: 'DefaultApp',
    property,
    recorded: `every recorded brand without a default app answers "${property}":null`,
  })),
];

function allowRecordedNulls(document: Node): void {
  const schemas = ((document.components as Node | undefined)?.schemas ?? {}) as Record<string, Node>;
  for (const { schema, property } of RECORDED_NULLS) {
    const properties = schemas[schema]?.properties as Record<string, Node> | undefined;
    if (properties?.[property]) properties[property] = { ...properties[property], nullable: true };
  }
}

/** JSON pointer escaping (RFC 6901). */
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates response bodies against the response schemas of Okta's OpenAPI description
 * (management.yaml): OpenAPI 3.0 schemas (`nullable`, `discriminator`, `$ref` into
 * `#/components/...`) compiled by ajv with `strict: false` and ajv-formats.
 */
export class OpenApiValidator {
  private readonly compiled = new Map<string, ValidateFunction>();

  private constructor(
    private readonly ajv: Ajv,
    private readonly document: Node,
  ) {}

  static async load(file: string): Promise<OpenApiValidator> {
    const document = parse(await readFile(file, 'utf8')) as Node;
    stripExamples(document);
    allowRecordedNulls(document);
    rewriteUntypedNullables(document);
    rewriteDiscriminators(document.components);
    rewriteDiscriminators(document.paths);
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true, logger: false });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    return new OpenApiValidator(ajv, document);
  }

  /**
   * Errors of `body` against the schema of `method path` answering `status` (path as in the
   * description, e.g. `/api/v1/groups/{groupId}/users`); [] when valid. Throws when the
   * description has no JSON schema for that response.
   */
  validate(path: string, method: string, status: number, body: unknown): string[] {
    const key = `${method} ${path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      let pointer = ['paths', path, method.toLowerCase(), 'responses', String(status)];
      const response = this.resolve(pointer) as Node | undefined;
      if (typeof response?.$ref === 'string') pointer = response.$ref.slice(2).split('/');
      pointer = [...pointer, 'content', 'application/json', 'schema'];
      if (this.resolve(pointer) === undefined) throw new Error(`No JSON response schema for ${key}`);
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${pointer.map(escape).join('/')}` });
      this.compiled.set(key, validate);
    }
    return validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  }

  private resolve(pointer: string[]): unknown {
    let node: unknown = this.document;
    for (const segment of pointer)
      node = node !== null && typeof node === 'object' ? (node as Node)[segment] : undefined;
    return node;
  }
}
