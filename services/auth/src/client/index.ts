export {
  ApiKeyClientCache,
  type ApiKeyClientCacheOptions,
  type ApiKeyClientCacheStats,
  type ResolvedApiKey,
} from './api-key-cache.js';
export { apiKeyCacheConsumers, grpcApiKeyResolver } from './api-key-cache.wiring.js';
