import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIObject } from '@nestjs/swagger';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** What the contract check needs of an HTTP answer (a supertest response has it). */
export interface ContractResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters: templates with fewer are tried first, so `/list` wins over `/{id}`. */
  parameters: number;
}

/**
 * Checks answers against the OpenAPI document of the app (docs/api.md): the status must be one
 * the operation documents, and a JSON body must match that response's schema (JSON Schema
 * 2020-12, as OpenAPI 3.1 has it, with ajv-formats' formats: uuid, date-time, uri, email...).
 */
export class OpenApiContract {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly routes: Route[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, 'openapi');
    this.routes = Object.entries(document.paths)
      .flatMap(([template, operations]) =>
        Object.keys(operations).map((method) => ({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
          parameters: (template.match(/\{/g) ?? []).length,
        })),
      )
      .sort((a, b) => a.parameters - b.parameters);
  }

  /**
   * The problems of one answer; empty when it keeps the contract. A path the document lacks is
   * left alone (the route-coverage test of test/openapi.e2e-spec.ts answers for those).
   * @param url the request path, with or without a query string
   */
  problems(method: string, url: string, response: ContractResponse): string[] {
    const path = new URL(url, 'http://x').pathname;
    const route = this.routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(path));
    if (!route) return [];
    const where = `${route.method} ${route.template} answered ${response.status}`;
    const escaped = route.template.replace(/~/g, '~0').replace(/\//g, '~1');
    const operation = this.document.paths[route.template][route.method.toLowerCase() as 'get'];
    const responses = operation?.responses ?? {};
    const documented = responses[String(response.status)] as
      { content?: Record<string, unknown> } | undefined;
    if (!documented) return [`${where}, a status the document does not list (${Object.keys(responses)})`];
    const contentType = String(response.headers['content-type'] ?? '').split(';')[0];
    if (contentType !== 'application/json' || !documented.content?.['application/json']) return [];
    const pointer = `openapi#/paths/${escaped}/${route.method.toLowerCase()}/responses/${response.status}/content/application~1json/schema`;
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.validators.set(pointer, validate);
    }
    // A body read as text or bytes (a streamed download's test reads it whole) is checked as the JSON it is.
    const raw: unknown = response.body;
    const body =
      typeof raw === 'string' || Buffer.isBuffer(raw) ? (JSON.parse(raw.toString()) as unknown) : raw;
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${where}: body${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }
}
