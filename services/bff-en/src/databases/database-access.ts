import {
  DeadlineExceededError,
  InternalError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  UnavailableError,
} from '@ipdata/common';
import type {
  CreateDownloadLinkResponse,
  GetSampleLinkResponse,
  ListDatabasesResponse,
  ListDownloadHistoryResponse,
} from '@ipdata/proto/downloads/v1/downloads';
import { unknownFileMessage } from './catalogue-listing.js';
import type { DatabaseDownloads, DownloadPlan, DownloadPlans } from './databases.ports.js';
import { planExclusionMessage, plansIncluding } from './plan-suggestion.js';

/**
 * Database and format names are short lower-case words (as downloads checks them); anything else
 * is answered as unknown, with the valid names, without asking for a link.
 */
const NAME = /^[a-z]{1,20}$/;

/** Stable reasons of the errors below (the public API's error codes). */
export const DATABASE_ERRORS = {
  notFound: 'database_not_found',
  sampleNotFound: 'sample_not_found',
  planExcludes: 'plan_excludes_database',
  dailyLimit: 'download_limit_reached',
  unavailable: 'downloads_unavailable',
} as const;

/**
 * The public /v1/databases routes' logic over the downloads service and billing's plan
 * catalogue: the catalogue with the caller's plan named, signed links, and errors a script's
 * author can act on — an unknown name lists the valid ones, a plan refusal names the plans that
 * include the file (downloads only knows datasets; naming plans is billing's catalogue, and
 * back-end services do not call each other, so bff-en composes it), the daily limit says when it
 * resets. Throws common DomainErrors whose `reason` is one of DATABASE_ERRORS.
 */
export class DatabaseAccess {
  constructor(
    private readonly downloads: DatabaseDownloads,
    private readonly plans: DownloadPlans,
  ) {}

  /** The catalogue for an account, with its download plan's name (null while billing does not answer). */
  async catalogue(accountId: string): Promise<{ catalogue: ListDatabasesResponse; planName: string | null }> {
    const [catalogue, plans] = await Promise.all([unavailableAs(this.downloads.list(accountId)), this.plansOrNone()]);
    return { catalogue, planName: plans.find((plan) => plan.id === catalogue.planId)?.name ?? null };
  }

  async downloadLink(input: {
    accountId: string;
    database: string;
    format: string;
    clientIp: string;
    nowMs: number;
  }): Promise<CreateDownloadLinkResponse> {
    const { accountId, database, format } = input;
    if (!NAME.test(database) || !NAME.test(format)) throw await this.unknown(database, format, false);
    try {
      return await this.downloads.createLink({ accountId, database, format, clientIp: input.clientIp });
    } catch (error) {
      if (error instanceof NotFoundError) throw await this.unknown(database, format, false);
      if (error instanceof PermissionDeniedError) throw await this.refusal(error, accountId, database, format);
      if (error instanceof ResourceExhaustedError) {
        const retryAfter = error.retryAfterSeconds;
        throw new ResourceExhaustedError(error.message, {
          reason: DATABASE_ERRORS.dailyLimit,
          details: {
            retryAfterSeconds: String(
              retryAfter !== undefined && Number.isFinite(retryAfter) && retryAfter > 0
                ? Math.ceil(retryAfter)
                : secondsToUtcMidnight(input.nowMs),
            ),
          },
        });
      }
      throw unavailable(error);
    }
  }

  /** The account's downloads (date, address, file), newest first. */
  history(accountId: string, page: number, pageSize: number): Promise<ListDownloadHistoryResponse> {
    return unavailableAs(this.downloads.history(accountId, page, pageSize));
  }

  async sampleLink(database: string, format: string): Promise<GetSampleLinkResponse> {
    if (!NAME.test(database) || !NAME.test(format)) throw await this.unknown(database, format, true);
    try {
      return await this.downloads.sampleLink(database, format);
    } catch (error) {
      if (error instanceof NotFoundError) throw await this.unknown(database, format, true);
      throw unavailable(error);
    }
  }

  private async unknown(database: string, format: string, sample: boolean): Promise<NotFoundError> {
    const catalogue = await this.downloads.list('').catch(() => undefined);
    const message = catalogue
      ? unknownFileMessage(catalogue.files, database, format, sample)
      : `There is no ${sample ? 'sample' : 'database'} ${JSON.stringify(database.slice(0, 40))} in format ${JSON.stringify(format.slice(0, 40))}.`;
    return new NotFoundError(message, { reason: sample ? DATABASE_ERRORS.sampleNotFound : DATABASE_ERRORS.notFound });
  }

  /**
   * The missing datasets and the account's plan come from the refusal's details when downloads
   * sends them, else from the account's catalogue (the same entitlement downloads decided on).
   */
  private async refusal(
    error: PermissionDeniedError,
    accountId: string,
    database: string,
    format: string,
  ): Promise<PermissionDeniedError> {
    const details = error.details;
    let missing = (details['missingDatasets'] ?? details['missing_datasets'] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name.length > 0);
    let planId = details['planId'] ?? details['plan_id'] ?? '';
    if (missing.length === 0 || planId === '') {
      const catalogue = await this.downloads.list(accountId).catch(() => undefined);
      const file = catalogue?.files.find((entry) => entry.database === database && entry.format === format);
      if (missing.length === 0 && file && catalogue) {
        missing = file.datasets.filter((dataset) => !catalogue.entitledDatasets.includes(dataset));
      }
      if (planId === '') planId = catalogue?.planId ?? '';
    }
    // Not a plan matter (e.g. bff-en refused by downloads' access policy): nothing for the caller to upgrade.
    if (missing.length === 0)
      throw new InternalError('downloads refused a link without naming a missing dataset', { cause: error });
    const plans = await this.plansOrNone();
    const message = planExclusionMessage({
      database,
      missing,
      currentPlan: plans.find((plan) => plan.id === planId)?.name ?? '',
      including: plansIncluding(missing, plans, planId),
    });
    return new PermissionDeniedError(message, {
      reason: DATABASE_ERRORS.planExcludes,
      details: { missing_datasets: missing.join(',') },
    });
  }

  /** Plan names make messages better; billing being down must not fail a download answer. */
  private plansOrNone(): Promise<DownloadPlan[]> {
    return this.plans.downloadPlans().catch(() => []);
  }
}

function unavailable(error: unknown): Error {
  if (error instanceof UnavailableError || error instanceof DeadlineExceededError) {
    return new UnavailableError('The database downloads service is unavailable.', {
      reason: DATABASE_ERRORS.unavailable,
      cause: error,
    });
  }
  return error instanceof Error ? error : new InternalError('downloads call failed', { cause: error });
}

async function unavailableAs<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw unavailable(error);
  }
}

/** The daily limit resets at 00:00 UTC. */
export function secondsToUtcMidnight(nowMs: number): number {
  const now = new Date(nowMs);
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - nowMs) / 1000));
}
