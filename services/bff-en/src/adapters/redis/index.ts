export {
  RedisQuotaStore,
  createRedisQuotaService,
  type RedisQuotaServiceOptions,
  type RedisQuotaStoreOptions,
} from './quota.redis-store.js';
