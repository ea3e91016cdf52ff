import type { ApiCall } from './api-call.js';
import { ApiError } from './api-error.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The API key of a request: `Authorization: Bearer <key>`, else `X-API-Key`, else the `key`
 * query parameter (least safe: URLs end up in logs and browser histories; documented so).
 */
export function apiKeyOf(call: ApiCall): string {
  const headers = call.request.headers;
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const match = BEARER.exec(authorization);
    if (match === null) {
      throw new ApiError(
        401,
        'invalid_authorization_header',
        'The Authorization header must be "Bearer <API key>".',
        'Send "Authorization: Bearer <your API key>".',
      );
    }
    return match[1] as string;
  }
  const header = headers['x-api-key'];
  if (typeof header === 'string' && header.length > 0) return header;
  const query = call.param('key');
  if (query !== null && query.length > 0) return query;
  throw new ApiError(
    401,
    'missing_api_key',
    'No API key was sent.',
    'Send your API key as "Authorization: Bearer <key>", in the X-API-Key header, or as the key query parameter.',
  );
}
