// Reads the public API's OpenAPI 3.1 document (bff-en's GET /v1/openapi.json, source
// services/bff-en/openapi/public-api.yaml) into what the documentation page shows: operations
// with their parameters, body and responses, the security schemes, the rate-limit headers and
// the error responses. Pure: the page fetches the document, this module only reads it.

export type Json = Record<string, unknown>;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type HttpMethod = Uppercase<(typeof METHODS)[number]>;

export interface DocParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  description: string;
  schema: Json;
  /** A value to start from: the parameter's or its schema's example, its default, or ''. */
  example: string;
}

export interface DocBody {
  required: boolean;
  /** The first media type is the one the examples and "Try it" send. */
  contentTypes: string[];
  schema: Json | undefined;
  /** The first example of the first media type, as text (JSON indented), or ''. */
  example: string;
}

export interface DocResponse {
  status: string;
  description: string;
  contentTypes: string[];
  /** The first media type's schema (a $ref kept, so the page can name it). */
  schema: Json | undefined;
  /** The component's name when the response is a shared one (`TooManyRequests`). */
  sharedName: string | undefined;
  /** Names of the headers it documents. */
  headers: string[];
}

export interface DocOperation {
  id: string;
  method: HttpMethod;
  path: string;
  tag: string;
  summary: string;
  description: string;
  parameters: DocParameter[];
  body: DocBody | undefined;
  responses: DocResponse[];
  /** false when the operation says `security: []` (no key needed). */
  needsKey: boolean;
  /** The success answer is a redirect (3xx): clients follow it to a file. */
  redirects: boolean;
  /** How the success answer is read: JSON, text (CSV, NDJSON, plain) or nothing. */
  answer: 'json' | 'text' | 'none';
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

/** The last segment of a local reference: `#/components/schemas/IpInfo` → `IpInfo`. */
export function refName(node: unknown): string | undefined {
  const ref = isObject(node) ? node['$ref'] : undefined;
  return typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined;
}

/** Follows local references (`#/components/...`; the document is self-contained) to the node itself. */
export function resolve(doc: Json, node: unknown): Json {
  let current: unknown = node;
  for (let depth = 0; isObject(current) && typeof current['$ref'] === 'string' && depth < 16; depth++) {
    const path = current['$ref'].replace(/^#\//, '').split('/').map(decodePointer);
    current = path.reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), doc);
  }
  return isObject(current) ? current : {};
}

function decodePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function exampleText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value, null, 2) : text(value);
}

/** The first example a parameter or schema offers (`example`, `examples[0]` or a named example), else its default. */
export function exampleOf(doc: Json, node: Json): unknown {
  if (node['example'] !== undefined) return node['example'];
  const examples = node['examples'];
  if (Array.isArray(examples) && examples.length > 0) return examples[0];
  if (isObject(examples)) {
    const first = Object.values(examples)[0];
    if (first !== undefined) return resolve(doc, first)['value'];
  }
  const schema = isObject(node['schema']) ? resolve(doc, node['schema']) : undefined;
  if (schema) return exampleOf(doc, schema);
  return node['default'];
}

function readParameter(doc: Json, raw: unknown): DocParameter {
  const parameter = resolve(doc, raw);
  const where = text(parameter['in']);
  return {
    name: text(parameter['name']),
    in: where === 'query' || where === 'header' || where === 'cookie' ? where : 'path',
    required: parameter['required'] === true,
    description: text(parameter['description']),
    schema: resolve(doc, parameter['schema']),
    example: exampleText(exampleOf(doc, parameter)),
  };
}

function readBody(doc: Json, raw: unknown): DocBody | undefined {
  if (raw === undefined) return undefined;
  const body = resolve(doc, raw);
  const content = isObject(body['content']) ? body['content'] : {};
  const contentTypes = Object.keys(content);
  const first = resolve(doc, content[contentTypes[0] ?? '']);
  return {
    required: body['required'] === true,
    contentTypes,
    schema: isObject(first['schema']) ? first['schema'] : undefined,
    example: exampleText(exampleOf(doc, first)),
  };
}

function readResponse(doc: Json, status: string, raw: unknown): DocResponse {
  const response = resolve(doc, raw);
  const content = isObject(response['content']) ? response['content'] : {};
  const contentTypes = Object.keys(content);
  const first = resolve(doc, content[contentTypes[0] ?? '']);
  return {
    status,
    description: text(response['description']),
    contentTypes,
    schema: isObject(first['schema']) ? first['schema'] : undefined,
    sharedName: refName(raw),
    headers: Object.keys(isObject(response['headers']) ? response['headers'] : {}),
  };
}

function answerKind(success: DocResponse | undefined): DocOperation['answer'] {
  const type = success?.contentTypes[0];
  if (type === undefined) return 'none';
  return type.includes('json') && !type.includes('ndjson') ? 'json' : 'text';
}

/** Every operation of the document, in its order (paths, then methods). */
export function readOperations(doc: Json): DocOperation[] {
  const operations: DocOperation[] = [];
  const paths = isObject(doc['paths']) ? doc['paths'] : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = resolve(doc, rawItem);
    const shared: unknown[] = Array.isArray(item['parameters']) ? item['parameters'] : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const own: unknown[] = Array.isArray(operation['parameters']) ? operation['parameters'] : [];
      const parameters = [...shared, ...own].map((raw) => readParameter(doc, raw));
      const responses = Object.entries(isObject(operation['responses']) ? operation['responses'] : {}).map(([status, raw]) =>
        readResponse(doc, status, raw),
      );
      const success = responses.find((response) => /^2/.test(response.status)) ?? responses.find((r) => /^3/.test(r.status));
      const security = operation['security'] ?? doc['security'];
      const tags = Array.isArray(operation['tags']) ? operation['tags'].map(text) : [];
      operations.push({
        id: text(operation['operationId']) || `${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, '-'),
        method: method.toUpperCase() as HttpMethod,
        path,
        tag: tags[0] || 'Other',
        summary: text(operation['summary']),
        description: text(operation['description']),
        // The key has its own place in the page (the Authorization header); the `key` query
        // parameter is documented once, as the least safe way, under Authentication.
        parameters: parameters.filter((parameter) => !(parameter.in === 'query' && parameter.name === 'key')),
        body: readBody(doc, operation['requestBody']),
        responses,
        needsKey: !(Array.isArray(security) && security.length === 0),
        redirects: success !== undefined && /^3/.test(success.status),
        answer: answerKind(success),
      });
    }
  }
  return operations;
}

/** Operations grouped by their first tag, groups in the document's tag order. */
export function groupByTag(doc: Json, operations: DocOperation[]): { tag: string; operations: DocOperation[] }[] {
  const declared = (Array.isArray(doc['tags']) ? doc['tags'] : []).map((tag) => text(resolve(doc, tag)['name']));
  const order = [...declared, ...operations.map((operation) => operation.tag)].filter(
    (tag, index, all) => tag && all.indexOf(tag) === index,
  );
  return order
    .map((tag) => ({ tag, operations: operations.filter((operation) => operation.tag === tag) }))
    .filter((group) => group.operations.length > 0);
}

export interface SecurityScheme {
  id: string;
  /** How the key travels, safest first: `bearer`, `header`, `query`. */
  kind: 'bearer' | 'header' | 'query' | 'other';
  /** The header or query parameter name (`Authorization`, `X-API-Key`, `key`). */
  name: string;
  description: string;
}

const SAFETY_ORDER: SecurityScheme['kind'][] = ['bearer', 'header', 'query', 'other'];

/** The ways to send the key, safest first (the query parameter last: it ends up in logs). */
export function securitySchemes(doc: Json): SecurityScheme[] {
  const components = isObject(doc['components']) ? doc['components'] : {};
  const schemes = isObject(components['securitySchemes']) ? components['securitySchemes'] : {};
  return Object.entries(schemes)
    .map(([id, raw]): SecurityScheme => {
      const scheme = resolve(doc, raw);
      const type = text(scheme['type']);
      const where = text(scheme['in']);
      const kind =
        type === 'http' && text(scheme['scheme']).toLowerCase() === 'bearer'
          ? 'bearer'
          : type === 'apiKey' && where === 'header'
            ? 'header'
            : type === 'apiKey' && where === 'query'
              ? 'query'
              : 'other';
      return {
        id,
        kind,
        name: kind === 'bearer' ? 'Authorization' : text(scheme['name']),
        description: text(scheme['description']),
      };
    })
    .sort((a, b) => SAFETY_ORDER.indexOf(a.kind) - SAFETY_ORDER.indexOf(b.kind));
}

export interface HeaderDoc {
  name: string;
  description: string;
}

/** The headers every answer carries about the quota and the request (`X-RateLimit-*`, `RateLimit*`, `Retry-After`, `X-Request-Id`). */
export function quotaHeaders(doc: Json): HeaderDoc[] {
  const components = isObject(doc['components']) ? doc['components'] : {};
  const headers = isObject(components['headers']) ? components['headers'] : {};
  return Object.entries(headers)
    .filter(([name]) => /ratelimit|retry-after|request-id/i.test(name))
    .map(([name, raw]) => ({ name, description: text(resolve(doc, raw)['description']) }));
}

export interface ErrorDoc {
  /** Statuses it answers with across the operations, ascending. */
  statuses: string[];
  name: string;
  description: string;
  example: string;
}

/** The document's shared error responses (4xx/5xx), each with the statuses it is used for. */
export function errorResponses(doc: Json, operations: DocOperation[]): ErrorDoc[] {
  const byName = new Map<string, Set<string>>();
  for (const operation of operations)
    for (const response of operation.responses)
      if (response.sharedName && /^[45]/.test(response.status))
        byName.set(response.sharedName, (byName.get(response.sharedName) ?? new Set()).add(response.status));
  const components = isObject(doc['components']) ? doc['components'] : {};
  const responses = isObject(components['responses']) ? components['responses'] : {};
  return [...byName.entries()]
    .map(([name, statuses]) => {
      const response = resolve(doc, responses[name]);
      const content = isObject(response['content']) ? response['content'] : {};
      const first = resolve(doc, Object.values(content)[0]);
      return {
        statuses: [...statuses].sort(),
        name,
        description: text(response['description']),
        example: exampleText(exampleOf(doc, first)),
      };
    })
    .sort((a, b) => (a.statuses[0] ?? '').localeCompare(b.statuses[0] ?? ''));
}

/** The schema of the one error shape (`components.schemas.Error`), when the document has it. */
export function errorSchema(doc: Json): Json | undefined {
  const components = isObject(doc['components']) ? doc['components'] : {};
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  return isObject(schemas['Error']) ? { $ref: '#/components/schemas/Error' } : undefined;
}
