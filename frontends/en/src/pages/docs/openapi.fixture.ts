// A small OpenAPI document in the public API's style, for the docs page's unit tests.
import type { Json } from './openapi-model.js';

const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};

export const FIXTURE: Json = {
  openapi: '3.1.0',
  info: { title: 'Test API', version: '1', summary: 'Test summary.' },
  security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
  tags: [{ name: 'IP' }, { name: 'Batch and bulk' }, { name: 'Databases' }],
  paths: {
    '/v1/ip/{ip}': {
      get: {
        operationId: 'getIp',
        tags: ['IP'],
        summary: 'Everything about one address',
        description: 'The full result.\n\nA `reserved` address is free.',
        parameters: [
          { $ref: '#/components/parameters/Ip' },
          { $ref: '#/components/parameters/Fields' },
          { $ref: '#/components/parameters/KeyQuery' },
        ],
        responses: {
          '200': {
            description: 'The data.',
            headers: rateHeaders,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/IpInfo' } },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
          '429': { $ref: '#/components/responses/TooManyRequests' },
        },
      },
    },
    '/v1/ip/{ip}/{field}': {
      get: {
        operationId: 'getIpField',
        tags: ['IP'],
        summary: 'One field',
        parameters: [
          { $ref: '#/components/parameters/Ip' },
          { name: 'field', in: 'path', required: true, schema: { type: 'string', examples: ['country_code'] } },
        ],
        responses: { '200': { description: 'Text.', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/v1/batch': {
      post: {
        operationId: 'postBatch',
        tags: ['Batch and bulk'],
        summary: 'Many addresses',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { type: 'array', items: { type: 'string' }, maxItems: 1000 },
                  { type: 'object', properties: { ips: { type: 'array', items: { type: 'string' } } } },
                ],
              },
              examples: { array: { value: ['8.8.8.8', '1.1.1.1'] } },
            },
          },
        },
        responses: {
          '200': {
            description: 'Items.',
            content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/IpInfo' } } } },
          },
          '400': { $ref: '#/components/responses/BadRequest' },
        },
      },
    },
    '/v1/bulk': {
      post: {
        operationId: 'postBulk',
        tags: ['Batch and bulk'],
        summary: 'A job',
        requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' }, example: '8.8.8.8\n1.1.1.1\n' } } },
        responses: { '202': { description: 'Accepted.', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/v1/databases/{database}/sample.{format}': {
      get: {
        operationId: 'getDatabaseSample',
        tags: ['Databases'],
        summary: 'A sample',
        security: [],
        parameters: [
          { name: 'database', in: 'path', required: true, schema: { type: 'string', examples: ['geolocation'] } },
          { name: 'format', in: 'path', required: true, schema: { type: 'string', examples: ['csv'] } },
        ],
        responses: { '302': { description: 'Redirect.', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
  components: {
    securitySchemes: {
      apiKeyQuery: { type: 'apiKey', in: 'query', name: 'key', description: 'Least safe.' },
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'Preferred.' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Header.' },
    },
    parameters: {
      Ip: {
        name: 'ip',
        in: 'path',
        required: true,
        description: 'An address.',
        schema: { type: 'string', examples: ['8.8.8.8', '2001:4860:4860::8888'] },
      },
      Fields: {
        name: 'fields',
        in: 'query',
        description: 'Members to keep.',
        schema: { type: 'string', examples: ['country_code,asn.asn'] },
      },
      KeyQuery: { name: 'key', in: 'query', schema: { type: 'string' } },
    },
    headers: {
      'X-RateLimit-Limit': { description: 'Lookups per month.', schema: { type: 'string' } },
      'X-RateLimit-Remaining': { description: 'Left this month.', schema: { type: 'string' } },
      Other: { description: 'Not a quota header.', schema: { type: 'string' } },
    },
    responses: {
      BadRequest: {
        description: 'The input is wrong; the message names it. Codes: `invalid_ip`.',
        content: {
          'application/json': {
            schema: { $ref: '#/components/schemas/Error' },
            example: { error: { code: 'invalid_ip', message: 'bad', resolution: 'fix' } },
          },
        },
      },
      TooManyRequests: {
        description: 'Quota used up.',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message', 'resolution'],
            properties: {
              code: { type: 'string', pattern: '^[a-z_]+$' },
              message: { type: 'string' },
              resolution: { type: 'string' },
            },
          },
        },
      },
      IpAsn: { type: ['object', 'null'], required: ['asn'], properties: { asn: { type: 'integer', minimum: 0 } } },
      IpInfo: {
        type: 'object',
        required: ['ip', 'asn'],
        properties: {
          ip: { type: 'string', description: 'Canonical form.' },
          latitude: { type: ['number', 'null'], minimum: -90, maximum: 90 },
          asn: { $ref: '#/components/schemas/IpAsn' },
          reserved: { $ref: '#/components/schemas/ReservedWord' },
        },
      },
      ReservedWord: { type: ['string', 'null'], enum: ['private', 'loopback', null] },
    },
  },
};
