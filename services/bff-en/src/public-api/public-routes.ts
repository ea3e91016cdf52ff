import type { BulkJobs } from '@ipdata/bulk-jobs';
import type { DatabaseAccess } from '../databases/database-access.js';
import type { DomainResolver } from '../domain-lookup/domain-resolver.js';
import type { UsageHistory } from '../usage-history/usage-history.js';
import type { LookupBatcher } from '../lookups/lookup-batcher.js';
import type { LookupEngine } from '../lookups/lookup.ports.js';
import type { Accounting } from './accounting.js';
import type { ClientAddressResolver } from '@ipdata/common';
import type { PublicOperation, PublicRoute } from './public-route.js';
import { asnRoutes } from './routes/asn.routes.js';
import { batchRoutes } from './routes/batch.routes.js';
import { bulkRoutes } from './routes/bulk.routes.js';
import { databaseRoutes } from './routes/databases.routes.js';
import { domainRoutes } from './routes/domain.routes.js';
import { ipRoutes } from './routes/ip.routes.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { usageRoutes } from './routes/usage.routes.js';

export interface PublicRoutesDeps {
  accounting: Accounting;
  lookups: LookupBatcher;
  engine: LookupEngine;
  domains: DomainResolver;
  bulk: BulkJobs;
  bulkMaxBytes: number;
  clientAddress: ClientAddressResolver;
  openApiJson: string;
  usageHistory: UsageHistory;
  databases: DatabaseAccess;
}

/** Every operation of the public API (the order is the dispatcher's matching order). */
export function publicRoutes(deps: PublicRoutesDeps): PublicRoute[] {
  return [
    ...ipRoutes(deps),
    ...asnRoutes(deps),
    ...domainRoutes(deps),
    ...batchRoutes(deps),
    ...bulkRoutes(deps),
    ...usageRoutes(deps),
    ...databaseRoutes(deps),
    ...openApiRoutes(deps.openApiJson),
  ];
}

export function operationsOf(routes: readonly PublicRoute[]): PublicOperation[] {
  return routes.map((route) => ({ method: route.method === 'GET' ? 'get' : 'post', path: route.path }));
}

/**
 * The operations as the OpenAPI document must list them (the contract test compares both), read
 * from the route factories themselves: building a route only captures its dependencies, so none
 * are needed to list them.
 */
export const PUBLIC_OPERATIONS: readonly PublicOperation[] = operationsOf(
  publicRoutes({ openApiJson: '' } as unknown as PublicRoutesDeps),
);
