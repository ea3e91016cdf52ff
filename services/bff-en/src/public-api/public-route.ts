import type { ApiCall } from './api-call.js';
import type { Caller } from './accounting.js';

/**
 * One public API operation. `path` is the OpenAPI template ('/v1/ip/{ip}'); the dispatcher
 * matches it segment by segment and passes the `{...}` segments, URL-decoded, in order.
 * `auth: true` operations get the resolved caller (401/403 are answered before the handler runs).
 */
export interface PublicRoute {
  method: 'GET' | 'POST';
  path: string;
  auth: boolean;
  handle(call: ApiCall, params: readonly string[], caller: Caller | undefined): Promise<void>;
}

/** A route list entry as the OpenAPI document names it (the contract test compares both). */
export interface PublicOperation {
  method: 'get' | 'post';
  path: string;
}
