import { describe, expect, it } from 'vitest';
import { FIXTURE } from './openapi.fixture.js';
import { errorResponses, groupByTag, quotaHeaders, readOperations, securitySchemes } from './openapi-model.js';
import { outlineSchema } from './schema-outline.js';

const operations = readOperations(FIXTURE);

describe('reading the OpenAPI document', () => {
  it('lists every operation with its method, tag and what its answer is', () => {
    expect(operations.map((operation) => `${operation.method} ${operation.path} ${operation.id}`)).toEqual([
      'GET /v1/ip/{ip} getIp',
      'GET /v1/ip/{ip}/{field} getIpField',
      'POST /v1/batch postBatch',
      'POST /v1/bulk postBulk',
      'GET /v1/databases/{database}/sample.{format} getDatabaseSample',
    ]);
    const getIp = operations[0]!;
    expect(getIp.answer).toBe('json');
    expect(operations[1]!.answer).toBe('text');
    expect(operations[4]!.redirects).toBe(true);
    expect(operations[4]!.needsKey).toBe(false);
    expect(getIp.needsKey).toBe(true);
  });

  it('resolves shared parameters with their examples and leaves the key parameter to the authentication section', () => {
    const getIp = operations[0]!;
    expect(getIp.parameters.map((parameter) => [parameter.name, parameter.in, parameter.required, parameter.example])).toEqual([
      ['ip', 'path', true, '8.8.8.8'],
      ['fields', 'query', false, 'country_code,asn.asn'],
    ]);
  });

  it('reads responses: status, media types, the shared response name', () => {
    const [ok, bad, many] = operations[0]!.responses;
    expect(ok).toMatchObject({ status: '200', contentTypes: ['application/json', 'text/csv'], sharedName: undefined });
    expect(ok!.headers).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining']);
    expect(bad).toMatchObject({ status: '400', sharedName: 'BadRequest' });
    expect(many).toMatchObject({ status: '429', sharedName: 'TooManyRequests' });
  });

  it('takes a body example from a named example or the media type', () => {
    expect(operations[2]!.body?.example).toBe('[\n  "8.8.8.8",\n  "1.1.1.1"\n]');
    expect(operations[3]!.body).toMatchObject({ contentTypes: ['text/plain'], example: '8.8.8.8\n1.1.1.1\n', required: true });
  });

  it('groups operations by tag in the document order', () => {
    expect(groupByTag(FIXTURE, operations).map((group) => [group.tag, group.operations.length])).toEqual([
      ['IP', 2],
      ['Batch and bulk', 2],
      ['Databases', 1],
    ]);
  });

  it('orders the ways to send a key safest first, the query parameter last', () => {
    expect(securitySchemes(FIXTURE).map((scheme) => [scheme.kind, scheme.name])).toEqual([
      ['bearer', 'Authorization'],
      ['header', 'X-API-Key'],
      ['query', 'key'],
    ]);
  });

  it('collects the error responses with their statuses, and the quota headers', () => {
    expect(errorResponses(FIXTURE, operations).map((error) => [error.name, error.statuses])).toEqual([
      ['BadRequest', ['400']],
      ['TooManyRequests', ['429']],
    ]);
    expect(errorResponses(FIXTURE, operations)[0]!.example).toContain('"invalid_ip"');
    expect(quotaHeaders(FIXTURE).map((header) => header.name)).toEqual(['X-RateLimit-Limit', 'X-RateLimit-Remaining']);
  });
});

describe('schema outlines', () => {
  it('names types in words, follows references and marks required members', () => {
    const node = outlineSchema(FIXTURE, { $ref: '#/components/schemas/IpInfo' });
    expect(node.type).toBe('IpInfo');
    expect(node.fields.map((field) => [field.name, field.node.type, field.required])).toEqual([
      ['ip', 'string', true],
      ['latitude', 'number | null', false],
      ['asn', 'IpAsn | null', true],
      ['reserved', 'ReservedWord (string | null)', false],
    ]);
    expect(node.fields[0]!.node.description).toBe('Canonical form.');
    expect(node.fields[1]!.node.constraints).toEqual(['-90 to 90']);
    expect(node.fields[2]!.node.fields[0]).toMatchObject({ name: 'asn', required: true, node: { type: 'integer' } });
    expect(node.fields[3]!.node.constraints).toEqual(['one of "private", "loopback", null']);
  });

  it('describes arrays and alternatives', () => {
    const batch = readOperations(FIXTURE)[2]!;
    const body = outlineSchema(FIXTURE, batch.body!.schema);
    expect(body.type).toBe('array of string | object');
    expect(body.variants).toHaveLength(1);
    expect(body.variants[0]!.fields[0]).toMatchObject({ name: 'ips', node: { type: 'array of string' } });
    const answer = outlineSchema(FIXTURE, batch.responses[0]!.schema);
    expect(answer.type).toBe('array of IpInfo');
    expect(answer.items?.fields.map((field) => field.name)).toContain('asn');
  });

  it('stops at a schema already open on the same branch', () => {
    const doc = {
      components: { schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } } },
    };
    const node = outlineSchema(doc, { $ref: '#/components/schemas/Node' });
    expect(node.fields[0]!.node.type).toBe('Node');
    expect(node.fields[0]!.node.fields).toEqual([]);
  });
});
