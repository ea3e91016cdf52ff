// Code examples of one operation in three languages (curl, JavaScript fetch, Python requests),
// generated from the operation and the values the reader typed in its "Try it" box, so an
// example always matches the document and the request the page can send. Pure: no DOM, no I/O.

import type { DocOperation } from './openapi-model.js';

/** Stands for the reader's key in the examples: a real secret is never printed on the page. */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

export type ExampleLanguage = 'curl' | 'javascript' | 'python';

export const EXAMPLE_LANGUAGES: { id: ExampleLanguage; label: string }[] = [
  { id: 'curl', label: 'curl' },
  { id: 'javascript', label: 'JavaScript' },
  { id: 'python', label: 'Python' },
];

export interface ExampleRequest {
  operation: DocOperation;
  /** Parameter values by name (path and query); an empty query value is left out. */
  values: Readonly<Record<string, string>>;
  /** The request body as text (JSON or plain), for operations that take one. */
  body?: string;
  /** Where the API is, without a trailing slash (`https://api.example.com`). */
  baseUrl: string;
  key?: string;
}

/** RFC 3986 keeps `:` `@` `,` and friends literal in a path segment; IPv6 addresses stay readable. */
function encodePathValue(value: string): string {
  return encodeURIComponent(value).replace(/%(3A|40|2C|21|24|27|28|29|2A|3B|3D)/gi, (escaped) => decodeURIComponent(escaped));
}

/** In a query value `,` and `:` are literal too (`fields=country_code,asn.asn`). */
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%(3A|2C|40)/gi, (escaped) => decodeURIComponent(escaped));
}

/** The path with its parameters filled: a value, else its example, else `{name}` for the reader to fill. */
export function fillPath(operation: DocOperation, values: Readonly<Record<string, string>>): string {
  return operation.path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const parameter = operation.parameters.find((p) => p.in === 'path' && p.name === name);
    const value = values[name]?.trim() || parameter?.example || '';
    return value ? encodePathValue(value) : whole;
  });
}

/** The query parameters that have a value, in the document's order. */
export function queryPairs(operation: DocOperation, values: Readonly<Record<string, string>>): [string, string][] {
  return operation.parameters
    .filter((parameter) => parameter.in === 'query')
    .map((parameter): [string, string] => [parameter.name, values[parameter.name]?.trim() ?? ''])
    .filter(([, value]) => value !== '');
}

/** The request's URL: base, filled path, query. */
export function requestUrl(request: Pick<ExampleRequest, 'operation' | 'values' | 'baseUrl'>): string {
  const query = queryPairs(request.operation, request.values)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeQueryValue(value)}`)
    .join('&');
  return `${request.baseUrl}${fillPath(request.operation, request.values)}${query ? `?${query}` : ''}`;
}

/** The body's media type, when the operation takes one and the reader gave one. */
function bodyType(request: ExampleRequest): string | undefined {
  return request.operation.body && request.body !== undefined && request.body.trim() !== ''
    ? (request.operation.body.contentTypes[0] ?? 'application/json')
    : undefined;
}

function isJsonType(type: string | undefined): boolean {
  return type !== undefined && /json/.test(type) && !/ndjson/.test(type);
}

/** The body as a value when it is JSON that parses, else undefined (sent as text then). */
function parsedBody(request: ExampleRequest): { value: unknown } | undefined {
  if (!isJsonType(bodyType(request))) return undefined;
  try {
    return { value: JSON.parse(request.body ?? '') as unknown };
  } catch {
    return undefined;
  }
}

/** A file name for operations that answer with a file (a redirect to it): `geolocation.csv`, `geolocation-sample.csv`. */
export function downloadName(request: Pick<ExampleRequest, 'operation' | 'values'>): string {
  const names = [...request.operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
  const valueOf = (name: string) =>
    (request.values[name]?.trim() || request.operation.parameters.find((p) => p.name === name)?.example || name).replace(
      /[^A-Za-z0-9_.-]/g,
      '_',
    );
  const sample = /sample/.test(request.operation.path) ? '-sample' : '';
  const last = names.at(-1);
  if (last === 'format') return `${names.slice(0, -1).map(valueOf).join('-') || 'download'}${sample}.${valueOf(last)}`;
  return `${names.map(valueOf).join('-') || 'download'}${sample}`;
}

/** A shell word in single quotes (nothing inside is expanded). */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function curlExample(request: ExampleRequest): string {
  const key = request.key ?? KEY_PLACEHOLDER;
  const type = bodyType(request);
  const method = request.operation.method;
  const first = ['curl'];
  if (method !== 'GET' && !(method === 'POST' && type)) first.push('-X', method);
  if (request.operation.redirects) first.push('-L', '-o', downloadName(request));
  first.push(shellQuote(requestUrl(request)));
  const lines = [first.join(' ')];
  if (request.operation.needsKey) lines.push(`-H ${shellQuote(`Authorization: Bearer ${key}`)}`);
  if (type) {
    lines.push(`-H ${shellQuote(`Content-Type: ${type}`)}`);
    const parsed = parsedBody(request);
    const body = parsed ? JSON.stringify(parsed.value) : (request.body ?? '');
    lines.push(`${isJsonType(type) ? '-d' : '--data-binary'} ${shellQuote(body)}`);
  }
  return lines.join(' \\\n  ');
}

/** A JavaScript string literal in single quotes. */
export function jsString(value: string): string {
  return `'${JSON.stringify(value).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function indentAfterFirst(textBlock: string, spaces: number): string {
  return textBlock.replace(/\n/g, `\n${' '.repeat(spaces)}`);
}

export function fetchExample(request: ExampleRequest): string {
  const key = request.key ?? KEY_PLACEHOLDER;
  const type = bodyType(request);
  const headers: string[] = [];
  if (request.operation.needsKey) headers.push(`Authorization: ${jsString(`Bearer ${key}`)}`);
  if (type) headers.push(`'Content-Type': ${jsString(type)}`);
  const options: string[] = [];
  if (request.operation.method !== 'GET') options.push(`method: ${jsString(request.operation.method)},`);
  if (headers.length > 0) options.push(`headers: { ${headers.join(', ')} },`);
  if (type) {
    const parsed = parsedBody(request);
    options.push(
      parsed
        ? `body: JSON.stringify(${indentAfterFirst(JSON.stringify(parsed.value, null, 2), 2)}),`
        : `body: ${jsString(request.body ?? '')},`,
    );
  }
  const call =
    options.length > 0
      ? `const response = await fetch(${jsString(requestUrl(request))}, {\n  ${options.join('\n  ')}\n});`
      : `const response = await fetch(${jsString(requestUrl(request))});`;
  // Every error answer is JSON of one shape: {"error": {"code", "message", "resolution"}}.
  const check = 'if (!response.ok) throw new Error((await response.json()).error.message);';
  const read = request.operation.redirects
    ? '// fetch followed the redirect: the body is the file.\nconst file = new Uint8Array(await response.arrayBuffer());\nconsole.log(file.byteLength);'
    : request.operation.answer === 'json'
      ? 'const data = await response.json();\nconsole.log(data);'
      : 'const text = await response.text();\nconsole.log(text);';
  return `${call}\n${check}\n${read}`;
}

/** A Python literal of a JSON value (`None`, `True`, lists, dicts), indented by four spaces per level. */
export function pythonLiteral(value: unknown, level = 0): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  const pad = '    '.repeat(level + 1);
  const end = '    '.repeat(level);
  if (Array.isArray(value)) {
    const items = value.map((item) => pythonLiteral(item, level + 1));
    const flat = `[${items.join(', ')}]`;
    return flat.length <= 72 && !flat.includes('\n') ? flat : `[\n${items.map((item) => `${pad}${item},`).join('\n')}\n${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([name, item]) => `${JSON.stringify(name)}: ${pythonLiteral(item, level + 1)}`,
  );
  const flat = `{${entries.join(', ')}}`;
  return flat.length <= 72 && !flat.includes('\n') ? flat : `{\n${entries.map((entry) => `${pad}${entry},`).join('\n')}\n${end}}`;
}

export function pythonExample(request: ExampleRequest): string {
  const key = request.key ?? KEY_PLACEHOLDER;
  const type = bodyType(request);
  const url = `${request.baseUrl}${fillPath(request.operation, request.values)}`;
  const headers: Record<string, string> = {};
  if (request.operation.needsKey) headers['Authorization'] = `Bearer ${key}`;
  const args = [JSON.stringify(url)];
  if (type && !isJsonType(type)) headers['Content-Type'] = type;
  if (Object.keys(headers).length > 0) args.push(`headers=${pythonLiteral(headers, 1)}`);
  const query = queryPairs(request.operation, request.values);
  if (query.length > 0) args.push(`params=${pythonLiteral(Object.fromEntries(query), 1)}`);
  if (type) {
    const parsed = parsedBody(request);
    // requests sets Content-Type: application/json itself for json=.
    args.push(parsed ? `json=${pythonLiteral(parsed.value, 1)}` : `data=${JSON.stringify(request.body ?? '')}`);
  }
  args.push(`timeout=${request.operation.redirects ? 300 : 10}`);
  const method = request.operation.method.toLowerCase();
  const lines = ['import requests', '', `response = requests.${method}(`, ...args.map((arg) => `    ${arg},`), ')'];
  lines.push('response.raise_for_status()');
  if (request.operation.redirects) {
    lines.push(
      '# requests followed the redirect (and did not send the key to the file host).',
      `with open(${JSON.stringify(downloadName(request))}, "wb") as file:`,
      '    file.write(response.content)',
    );
  } else lines.push(request.operation.answer === 'json' ? 'print(response.json())' : 'print(response.text)');
  return lines.join('\n');
}

/** The example of `language` for the request. */
export function codeExample(language: ExampleLanguage, request: ExampleRequest): string {
  if (language === 'curl') return curlExample(request);
  if (language === 'javascript') return fetchExample(request);
  return pythonExample(request);
}
