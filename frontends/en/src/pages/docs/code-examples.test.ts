import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  codeExample,
  curlExample,
  downloadName,
  EXAMPLE_LANGUAGES,
  fetchExample,
  jsString,
  pythonExample,
  pythonLiteral,
  requestUrl,
  shellQuote,
} from './code-examples.js';
import { FIXTURE } from './openapi.fixture.js';
import { readOperations, type DocOperation, type Json } from './openapi-model.js';
import { initialValues } from './try-it.js';

const BASE = 'https://api.example.test';
const operations = readOperations(FIXTURE);
const op = (id: string): DocOperation => operations.find((operation) => operation.id === id)!;
const request = (id: string, values: Record<string, string> = initialValues(op(id)), body = op(id).body?.example) => ({
  operation: op(id),
  values,
  baseUrl: BASE,
  ...(body === undefined ? {} : { body }),
});

describe('request URLs', () => {
  it('fills path parameters with their examples and leaves empty query values out', () => {
    expect(requestUrl(request('getIp'))).toBe(`${BASE}/v1/ip/8.8.8.8`);
  });

  it('keeps IPv6 colons and field commas readable, escapes the rest', () => {
    const url = requestUrl(request('getIp', { ip: '2001:4860:4860::8888', fields: 'country_code,asn.asn' }));
    expect(url).toBe(`${BASE}/v1/ip/2001:4860:4860::8888?fields=country_code,asn.asn`);
    expect(requestUrl(request('getIp', { ip: 'a b/c' }))).toBe(`${BASE}/v1/ip/a%20b%2Fc`);
  });

  it('fills a parameter inside a segment (sample.{format})', () => {
    expect(requestUrl(request('getDatabaseSample'))).toBe(`${BASE}/v1/databases/geolocation/sample.csv`);
    expect(downloadName(request('getDatabaseSample'))).toBe('geolocation-sample.csv');
  });
});

describe('curl', () => {
  it('sends the key in the Authorization header', () => {
    expect(curlExample(request('getIp'))).toBe(`curl '${BASE}/v1/ip/8.8.8.8' \\\n  -H 'Authorization: Bearer YOUR_API_KEY'`);
  });

  it('posts a JSON body compactly and quotes it for the shell', () => {
    const example = curlExample(request('postBatch', {}, `["8.8.8.8", "it's"]`));
    expect(example).toContain(`-H 'Content-Type: application/json'`);
    expect(example).toContain(`-d '["8.8.8.8","it'\\''s"]'`);
    expect(example).not.toContain('-X POST');
  });

  it('sends a text body as it is, and follows a redirect to a file without a key when none is needed', () => {
    expect(curlExample(request('postBulk'))).toContain(`--data-binary '8.8.8.8\n1.1.1.1\n'`);
    const sample = curlExample(request('getDatabaseSample'));
    expect(sample).toBe(`curl -L -o geolocation-sample.csv '${BASE}/v1/databases/geolocation/sample.csv'`);
  });

  it('quotes anything the reader typed', () => {
    expect(shellQuote(`$(rm -rf ~)'`)).toBe(`'$(rm -rf ~)'\\'''`);
  });
});

describe('JavaScript (fetch)', () => {
  it('reads JSON, throws the error message of a failed call', () => {
    expect(fetchExample(request('getIp'))).toBe(
      [
        `const response = await fetch('${BASE}/v1/ip/8.8.8.8', {`,
        `  headers: { Authorization: 'Bearer YOUR_API_KEY' },`,
        '});',
        'if (!response.ok) throw new Error((await response.json()).error.message);',
        'const data = await response.json();',
        'console.log(data);',
      ].join('\n'),
    );
  });

  it('stringifies a JSON body and reads a text answer as text', () => {
    const batch = fetchExample(request('postBatch'));
    expect(batch).toContain(`method: 'POST',`);
    expect(batch).toContain(`'Content-Type': 'application/json'`);
    expect(batch).toContain('body: JSON.stringify([\n    "8.8.8.8",\n    "1.1.1.1"\n  ]),');
    expect(fetchExample(request('getIpField'))).toContain('const text = await response.text();');
  });

  it('escapes string literals', () => {
    expect(jsString(`it's "x"\n`)).toBe(`'it\\'s "x"\\n'`);
  });
});

describe('Python (requests)', () => {
  it('passes the key as a header, query values as params, with a timeout', () => {
    expect(pythonExample(request('getIp', { ip: '8.8.8.8', fields: 'country_code' }))).toBe(
      [
        'import requests',
        '',
        'response = requests.get(',
        `    "${BASE}/v1/ip/8.8.8.8",`,
        '    headers={"Authorization": "Bearer YOUR_API_KEY"},',
        '    params={"fields": "country_code"},',
        '    timeout=10,',
        ')',
        'response.raise_for_status()',
        'print(response.json())',
      ].join('\n'),
    );
  });

  it('sends a JSON body as json= and a text body as data= with its type', () => {
    expect(pythonExample(request('postBatch'))).toContain('    json=["8.8.8.8", "1.1.1.1"],');
    const bulk = pythonExample(request('postBulk'));
    expect(bulk).toContain('"Content-Type": "text/plain"');
    expect(bulk).toContain('    data="8.8.8.8\\n1.1.1.1\\n",');
  });

  it('writes a redirected file to disk', () => {
    const sample = pythonExample(request('getDatabaseSample'));
    expect(sample).not.toContain('Authorization');
    expect(sample).toContain('with open("geolocation-sample.csv", "wb") as file:');
  });

  it('turns JSON values into Python literals', () => {
    expect(pythonLiteral({ a: null, b: [true, false, 1.5], c: 'x' })).toBe('{"a": None, "b": [True, False, 1.5], "c": "x"}');
    expect(pythonLiteral(Array.from({ length: 12 }, (_, i) => `10.0.0.${i}`))).toMatch(/^\[\n {4}"10\.0\.0\.0",\n/);
  });
});

describe('every operation of the public API document', () => {
  const here = dirname(fileURLToPath(import.meta.url));
  const yaml = readFileSync(join(here, '../../../../../services/bff-en/openapi/public-api.yaml'), 'utf8');
  const doc = parse(yaml) as Json;
  const all = readOperations(doc);

  it('has examples in the three languages with every path parameter filled', () => {
    expect(all.length).toBeGreaterThanOrEqual(14);
    for (const operation of all) {
      for (const language of EXAMPLE_LANGUAGES) {
        const code = codeExample(language.id, {
          operation,
          values: initialValues(operation),
          baseUrl: BASE,
          ...(operation.body ? { body: operation.body.example } : {}),
        });
        expect(code, `${operation.id} ${language.id}`).toContain(BASE);
        expect(code.includes('Bearer YOUR_API_KEY'), `${operation.id} ${language.id}`).toBe(operation.needsKey);
        // Only a job id has no example: the reader fills it.
        if (!operation.path.includes('{id}')) expect(code, `${operation.id} ${language.id}`).not.toMatch(/\{[a-z_]+\}/);
      }
    }
  });
});
