/**
 * '@ipdata/common/http-edge': what the HTTP edges (bff-en's public API and web API, face A's
 * dispatcher in bff-cn) share: request ids, HEAD, CORS, the error classification and the catch
 * every dispatcher runs, the OpenAPI document, per-visitor limits keyed by rateLimitKey. Each
 * face keeps its router, its answer shape and its one error mapper (README.md beside this file).
 */
export { CorsPolicy, type CorsOptions } from './cors.js';
export { edgeErrorOf, failEdge, type EdgeError, type EdgeLog } from './edge-error.js';
export { bodyFor, routeMethod } from './head.js';
export { JSON_CONTENT_TYPE, OPENAPI_CACHE_CONTROL, OpenApiDocument } from './openapi-document.js';
export { REQUEST_ID_HEADER, newRequestId } from './request-id.js';
export { VisitorLimit, type VisitorCounter, type VisitorLimitOptions } from './visitor-limit.js';
