import { readFile } from 'node:fs/promises';

import { parse } from 'yaml';

type Node = Record<string, unknown>;

/** Keywords that give an object schema a shape; without any of them it takes any property. */
const ANY_SHAPE = ['properties', 'additionalProperties', 'allOf', 'oneOf', 'anyOf', 'items', 'enum'];

/**
 * Okta's request schemas (management.yaml): which fields of an object an operation's request
 * body can write. A property is writable when the operation's request schema names it and does
 * not mark it `readOnly`, or when it sits under an object that takes any property
 * (`additionalProperties`, a user's `profile`).
 */
export class RequestSchemas {
  private constructor(private readonly document: Node) {}

  /** Loads management.yaml (or another OpenAPI 3.0 document). */
  static async load(file: string): Promise<RequestSchemas> {
    return new RequestSchemas(parse(await readFile(file, 'utf8')) as Node);
  }

  /**
   * The JSON pointers of `data`'s leaves (arrays count as leaves) that the request body of
   * `method` on `template` (`/api/v1/idps/{idpId}`, parameter names free) can write; undefined
   * when the document has no JSON request body for that operation.
   */
  writablePaths(method: string, template: string, data: unknown): string[] | undefined {
    const schema = this.requestSchema(method, template);
    if (!schema) return undefined;
    const paths: string[] = [];
    this.walk(schema, data, '', paths);
    return paths;
  }

  /**
   * The JSON pointers of the members the request body of `method` on `template` requires
   * (`required`, at the top and inside every object the body holds) that `body` lacks; undefined
   * when the document has no JSON request body for that operation. Okta answers such a body 400
   * E0000001 "Api validation failed: {member}" (recorded createIamRole without `permissions`).
   */
  missingRequired(method: string, template: string, body: unknown): string[] | undefined {
    const schema = this.requestSchema(method, template);
    if (!schema) return undefined;
    const missing: string[] = [];
    this.checkRequired(schema, body, '', missing);
    return missing;
  }

  private checkRequired(node: Node, data: unknown, at: string, out: string[], depth = 0): void {
    if (data === null || typeof data !== 'object' || Array.isArray(data) || depth > 12) return;
    // Only the branch a discriminator names binds: any one of a plain oneOf may be the one taken.
    const parts = this.flatten(node, data, 0, false);
    const held = data as Node;
    for (const part of parts)
      for (const name of (part.required as string[] | undefined) ?? [])
        if (held[name] === undefined && !out.includes(`${at}/${name}`)) out.push(`${at}/${name}`);
    for (const [key, value] of Object.entries(held)) {
      const property = parts
        .map((part) => (part.properties as Record<string, Node> | undefined)?.[key])
        .find((p) => p !== undefined);
      if (property) this.checkRequired(property, value, `${at}/${key}`, out, depth + 1);
    }
  }

  private requestSchema(method: string, template: string): Node | undefined {
    const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
    const paths = (this.document.paths ?? {}) as Record<string, Node>;
    const path = Object.keys(paths).find((p) => shape(p) === shape(template));
    const operation = path ? (paths[path][method.toLowerCase()] as Node | undefined) : undefined;
    const content = (this.resolve(operation?.requestBody as Node | undefined)?.content ?? {}) as Record<
      string,
      Node
    >;
    return content['application/json']?.schema as Node | undefined;
  }

  private resolve(node: Node | undefined): Node | undefined {
    let current = node;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 20; hops++) {
      const [, ...parts] = current.$ref.split('/');
      current = parts.reduce<unknown>((at, part) => (at as Node | undefined)?.[part], this.document) as
        Node | undefined;
    }
    return current;
  }

  /**
   * The schema `data` takes: allOf merged, the discriminator's mapping (or, with `everyChoice`,
   * every branch of a oneOf/anyOf) followed.
   */
  private flatten(node: Node | undefined, data: unknown, depth = 0, everyChoice = true): Node[] {
    const schema = this.resolve(node);
    if (!schema || depth > 12) return [];
    const parts: Node[] = [schema];
    for (const sub of (schema.allOf as Node[] | undefined) ?? [])
      parts.push(...this.flatten(sub, data, depth + 1, everyChoice));
    const choices = (schema.oneOf ?? schema.anyOf) as Node[] | undefined;
    const discriminator = schema.discriminator as
      { propertyName: string; mapping?: Record<string, string> } | undefined;
    const chosen = discriminator?.mapping?.[String((data as Node | null)?.[discriminator.propertyName])];
    if (chosen && !choices?.length) {
      // A base schema whose subtypes extend it (allOf): the mapped subtype adds its own fields.
      parts.push(...this.flatten({ $ref: chosen }, data, depth + 1, everyChoice).filter((p) => p !== schema));
    } else if (choices && (chosen || everyChoice))
      for (const choice of chosen ? [{ $ref: chosen }] : choices)
        parts.push(...this.flatten(choice, data, depth + 1, everyChoice));
    return parts;
  }

  private walk(node: Node, data: unknown, at: string, out: string[]): void {
    if (data === null || typeof data !== 'object' || Array.isArray(data) || Object.keys(data).length === 0) {
      out.push(at);
      return;
    }
    const parts = this.flatten(node, data);
    if (parts.every((part) => ANY_SHAPE.every((keyword) => part[keyword] === undefined))) {
      // A free-form object (`type: object` and nothing more): every field under it is writable.
      out.push(...leafPaths(data, at));
      return;
    }
    for (const [key, value] of Object.entries(data as Node)) {
      const property = parts
        .map((part) => (part.properties as Record<string, Node> | undefined)?.[key])
        .find((p) => p !== undefined);
      const open = parts.map((part) => part.additionalProperties).find((a) => a !== undefined && a !== false);
      const child = property ?? (open === undefined ? undefined : open === true ? {} : (open as Node));
      if (child === undefined) continue;
      const readOnly = this.flatten(child, value).some((part) => part.readOnly === true);
      if (!readOnly) this.walk(child, value, `${at}/${key}`, out);
    }
  }
}

/** The JSON pointers of a value's leaves (arrays, empty objects and scalars are leaves). */
export function leafPaths(value: unknown, at = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0)
    return [at];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, `${at}/${key}`));
}
