import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Logger } from 'pino';
import type { LimitedCounter, VisitorIds } from '@ipdata/common';
import { VisitorLimit } from '@ipdata/common/http-edge';
import { PlanTier, SubscriptionKind } from '@ipdata/proto/events/v1/billing';
import type { DatabaseAccess } from '../databases/database-access.js';
import type { DomainResolver } from '../domain-lookup/domain-resolver.js';
import type { LookupBatcher } from '../lookups/lookup-batcher.js';
import type { Accounting } from '../public-api/accounting.js';
import type { QuotaService } from '@ipdata/metering';
import { accountRoutes } from './routes/account.routes.js';
import { billingRoutes } from './routes/billing.routes.js';
import { TOO_MANY_MESSAGES, contactRoutes } from './routes/contact.routes.js';
import { downloadRoutes } from './routes/downloads.routes.js';
import { keyRoutes } from './routes/keys.routes.js';
import { TOO_MANY_LOOKUPS, lookupRoutes } from './routes/lookup.routes.js';
import { usageRoutes } from './routes/usage.routes.js';
import type { CookiePolicy } from './session-cookie.js';
import type { ContactForm, UnreadCounts, UsageSeries, WebAccounts, WebBilling } from './web-api.ports.js';
import type { WebRoute } from './web-route.js';

/** openapi/web-api.yaml beside src/ and dist/ alike. */
export const WEB_OPENAPI_FILE = fileURLToPath(new URL('../../openapi/web-api.yaml', import.meta.url));

export function loadWebOpenApiJson(file = WEB_OPENAPI_FILE): string {
  return JSON.stringify(parse(readFileSync(file, 'utf8')));
}

/** The spec's free tier, said where billing's catalogue cannot be asked. */
const FREE_TIER_LOOKUPS = 50_000;

export interface WebApiRoutesDeps {
  accounts: WebAccounts;
  billing: WebBilling;
  unread: UnreadCounts;
  contact: ContactForm;
  usageSeries: UsageSeries;
  quota: QuotaService | undefined;
  databases: DatabaseAccess;
  lookups: LookupBatcher;
  domains: DomainResolver;
  accounting: Accounting;
  visitorIds: VisitorIds;
  limiter: LimitedCounter;
  config: {
    SITE_ORIGIN: string;
    COOKIE_DOMAIN: string;
    APP_ENV: string;
    DEFAULT_BURST_PER_SECOND: number;
    WEB_LOOKUP_RATE_LIMIT: number;
    WEB_LOOKUP_RATE_WINDOW_SECONDS: number;
    WEB_CONTACT_RATE_LIMIT: number;
    WEB_CONTACT_RATE_WINDOW_SECONDS: number;
  };
  logger: Logger;
}

/** Every route of the web API, in the order the OpenAPI document lists them. */
export function webApiRoutes(deps: WebApiRoutesDeps): WebRoute[] {
  const { config } = deps;
  const cookies: CookiePolicy = { domain: config.COOKIE_DOMAIN, secure: config.APP_ENV === 'production' };
  const freeLookupsPerMonth = async () => {
    const plans = await deps.billing.plans().catch(() => []);
    const free = plans.find(
      (plan) => plan.kind === SubscriptionKind.SUBSCRIPTION_KIND_API_ACCESS && plan.tier === PlanTier.PLAN_TIER_FREE,
    );
    return free?.limits?.lookupsPerMonth ?? FREE_TIER_LOOKUPS;
  };
  return [
    ...accountRoutes({ accounts: deps.accounts, unread: deps.unread, cookies, freeLookupsPerMonth, logger: deps.logger }),
    ...keyRoutes({ accounts: deps.accounts }),
    ...usageRoutes({
      billing: deps.billing,
      quota: deps.quota,
      series: deps.usageSeries,
      defaultBurstPerSecond: config.DEFAULT_BURST_PER_SECOND,
    }),
    ...billingRoutes({ billing: deps.billing, returnUrl: new URL('/pricing?checkout=done', config.SITE_ORIGIN).toString() }),
    ...downloadRoutes({ databases: deps.databases }),
    ...lookupRoutes({
      lookups: deps.lookups,
      domains: deps.domains,
      accounting: deps.accounting,
      visitorIds: deps.visitorIds,
      visitorLimit: new VisitorLimit(deps.limiter, {
        prefix: 'bff-en:lookup-tool:',
        limit: config.WEB_LOOKUP_RATE_LIMIT,
        windowSeconds: config.WEB_LOOKUP_RATE_WINDOW_SECONDS,
        refusal: TOO_MANY_LOOKUPS,
      }),
    }),
    ...contactRoutes({
      contact: deps.contact,
      visitorIds: deps.visitorIds,
      visitorLimit: new VisitorLimit(deps.limiter, {
        prefix: 'bff-en:contact-form:',
        limit: config.WEB_CONTACT_RATE_LIMIT,
        windowSeconds: config.WEB_CONTACT_RATE_WINDOW_SECONDS,
        refusal: TOO_MANY_MESSAGES,
      }),
    }),
  ];
}
