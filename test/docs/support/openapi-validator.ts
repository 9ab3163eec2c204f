// Validates requests and answers against the OpenAPI document with ajv (JSON Schema 2020-12, the 3.1 dialect).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenApiDocument } from '../../../mock/openapi/openapi-document.js';

type Json = Record<string, unknown>;

/** A documented operation matched by method and concrete path. */
export interface MatchedOperation {
  /** The path template, e.g. `/api/domain/{id}/update`. */
  template: string;
  /** The operation object. */
  operation: Json;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Compiles validators for the document's schemas on demand and matches concrete paths to its operations. */
export class OpenApiValidator {
  readonly doc: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly #cache = new Map<string, ValidateFunction>();
  readonly #templates: { template: string; pattern: RegExp }[];

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    // strict off: OpenAPI keywords (paths, info...) sit around the schemas; formats are not part of what we check.
    this.#ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    this.#ajv.addSchema(doc as unknown as Json, 'openapi.json');
    this.#templates = Object.keys(doc.paths)
      // Literal paths first: /api/qr/add must not be read as /api/qr/{id}.
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
  }

  /** The operation documented for `method` on the concrete `path`, or undefined. */
  match(method: string, path: string): MatchedOperation | undefined {
    for (const { template, pattern } of this.#templates) {
      if (!pattern.test(path)) continue;
      const operation = this.doc.paths[template]?.[method.toLowerCase()] as Json | undefined;
      if (operation) return { template, operation };
    }
    return undefined;
  }

  /** Validates `value` against the schema at a JSON pointer inside the document; returns error lines (empty = valid). */
  check(schemaPointer: string, value: unknown): string[] {
    let validate = this.#cache.get(schemaPointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `openapi.json#${schemaPointer}` });
      this.#cache.set(schemaPointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  }

  /** The pointer of an operation's JSON response schema for a status, or undefined when that status is not documented. */
  responsePointer(m: MatchedOperation, method: string, status: number): string | undefined {
    const responses = m.operation.responses as Record<string, Json>;
    if (!responses[String(status)]) return undefined;
    return `/${pointer('paths', m.template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  }

  /** The pointer of an operation's JSON request body schema, or undefined when it takes none. */
  requestPointer(m: MatchedOperation, method: string): string | undefined {
    if (!m.operation.requestBody) return undefined;
    return `/${pointer('paths', m.template, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema')}`;
  }

  /** The pointer of a webhook's request body schema. */
  webhookPointer(event: string): string {
    return `/${pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
  }
}
