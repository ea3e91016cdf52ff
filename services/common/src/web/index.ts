/**
 * '@ipdata/common/web-app': serving a built web app from a BFF (bff-cn: face A, bff-en: face B) —
 * SPA fallback, year-long caching of hashed assets, gzip, ETags, the CSP. A subpath of its own:
 * it loads node:fs, node:zlib and node:crypto only, and services without an app never import it.
 */
export { WebApp, resolveDistDir, type WebAppConfig, type WebAppOptions } from './web-app.js';
export {
  ASSETS_PREFIX,
  CACHE_IMMUTABLE,
  CACHE_REVALIDATE,
  SECURITY_HEADERS,
  cacheControlOf,
  isReservedPath,
} from './web-paths.js';
