// Reading bff-cn's own OpenAPI document (GET /v1/openapi.json) for the online API page: each call
// with its summary, whether it needs a login, and its form fields with their examples.

type Json = Record<string, unknown>;

export interface DocField {
  name: string;
  required: boolean;
  description: string;
  example: string;
}

export interface DocCall {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  needsLogin: boolean;
  fields: DocField[];
}

/** A value of the document as text: strings and numbers as they are, anything else empty. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function resolve(doc: Json, node: unknown): Json {
  let current = node as Json | undefined;
  // Local references only (#/components/...): the document is self-contained.
  for (let depth = 0; current && typeof current['$ref'] === 'string' && depth < 10; depth++) {
    const path = current['$ref'].replace(/^#\//, '').split('/');
    current = path.reduce<unknown>((at, key) => (at as Json | undefined)?.[key], doc) as Json | undefined;
  }
  return current ?? {};
}

function exampleOf(schema: Json): string {
  const values: unknown = schema['enum'];
  return text(schema['example']) || text(schema['default']) || (Array.isArray(values) ? text(values[0]) : '');
}

function formFields(doc: Json, operation: Json): DocField[] {
  const body = resolve(doc, operation['requestBody']);
  const content = (body['content'] ?? {}) as Json;
  const schema = resolve(doc, (content['multipart/form-data'] as Json | undefined)?.['schema']);
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  return Object.entries((schema['properties'] ?? {}) as Json).map(([name, property]) => {
    const field = resolve(doc, property);
    return { name, required: required.has(name), description: text(field['description']), example: exampleOf(field) };
  });
}

function queryFields(doc: Json, operation: Json): DocField[] {
  return ((operation['parameters'] ?? []) as unknown[])
    .map((parameter) => resolve(doc, parameter))
    .filter((parameter) => parameter['in'] === 'query')
    .map((parameter) => {
      const schema = resolve(doc, parameter['schema']);
      return {
        name: String(parameter['name']),
        required: parameter['required'] === true,
        description: text(parameter['description']),
        example: text(parameter['example']) || exampleOf(schema),
      };
    });
}

/** Every call of the document, in its order. */
export function readCalls(doc: Json): DocCall[] {
  const calls: DocCall[] = [];
  for (const [path, item] of Object.entries((doc['paths'] ?? {}) as Json)) {
    for (const method of ['get', 'post'] as const) {
      const operation = (item as Json)[method] as Json | undefined;
      if (!operation) continue;
      calls.push({
        method: method === 'get' ? 'GET' : 'POST',
        path,
        summary: text(operation['summary']),
        needsLogin: operation['x-needs-login'] === true,
        fields: method === 'get' ? queryFields(doc, operation) : formFields(doc, operation),
      });
    }
  }
  return calls;
}
