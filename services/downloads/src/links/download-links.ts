import { randomUUID } from 'node:crypto';
import { NotFoundError, PermissionDeniedError, ResourceExhaustedError, type Clock } from '@ipdata/common';
import { Catalogue, type CatalogueFile } from '../catalogue/catalogue.js';
import { entryFor, missingDatasets } from '../catalogue/catalogue-files.js';
import type { Entitlements } from '../entitlements/entitlement.js';
import type { DailyCounter, LinkStore } from './download-link.js';
import { signLink } from './link-signature.js';
import { checkAccountId, checkWord } from './request-checks.js';
import { nextUtcMidnight, secondsUntilUtcMidnight, utcDay } from './utc-day.js';

export interface LinkSettings {
  secret: string;
  /** Where the file server is reachable for downloaders, without a trailing slash. */
  publicBaseUrl: string;
  ttlSeconds: number;
  dailyLimit: number;
}

export interface CreatedLink {
  url: string;
  expiresAt: Date;
  file: CatalogueFile;
  remainingToday: number;
}

/** The path of a version's file on the file server (signed links and samples share the shape). */
export function filePath(kind: 'files' | 'samples', version: string, fileName: string): string {
  return `/${kind}/${encodeURIComponent(version)}/${encodeURIComponent(fileName)}`;
}

/**
 * CreateDownloadLink: the file of the current version, if the account's plan includes every
 * dataset it carries and the account has links left today (counted when created, per UTC day),
 * as a link signed over (link id, account, version, file, expiry) and stored, valid ttlSeconds.
 */
export class DownloadLinks {
  constructor(
    private readonly deps: {
      catalogue: Catalogue;
      entitlements: Entitlements;
      links: LinkStore;
      counter: DailyCounter;
      clock: Clock;
      settings: LinkSettings;
    },
  ) {}

  async create(request: { accountId: string; database: string; format: string; clientIp: string }): Promise<CreatedLink> {
    const accountId = checkAccountId(request.accountId);
    const entry = entryFor(checkWord('database', request.database), checkWord('format', request.format));
    if (!entry) {
      throw new NotFoundError(`no ${request.database} database in ${request.format} format`, { reason: 'unknown_database' });
    }
    const version = await this.deps.catalogue.current();
    if (!version) throw new NotFoundError('no dataset has been published yet', { reason: 'no_dataset' });
    const file = Catalogue.filesOf(version).find((candidate) => candidate.entry === entry);
    if (!file) {
      throw new NotFoundError(`dataset ${version.version} has no ${entry.fileName}`, { reason: 'file_not_in_version' });
    }

    const plan = await this.deps.entitlements.of(accountId);
    const missing = missingDatasets(entry, plan.datasets);
    if (missing.length > 0) {
      throw new PermissionDeniedError(`Your plan does not include the ${missing.join(' and ')} data of ${entry.fileName}.`, {
        reason: 'dataset_not_in_plan',
        details: { missingDatasets: missing.join(','), database: entry.database, format: entry.format, planId: plan.planId },
      });
    }

    const { settings, clock } = this.deps;
    const now = clock.now();
    const count = await this.deps.counter.take(accountId, utcDay(now), settings.dailyLimit);
    if (count === null) throw dailyLimitReached(settings.dailyLimit, now);

    const linkId = randomUUID();
    const expires = Math.floor(now.getTime() / 1000) + settings.ttlSeconds;
    const claims = { linkId, accountId, version: version.version, fileName: entry.fileName, expires };
    await this.deps.links.create({
      linkId,
      accountId,
      database: entry.database,
      format: entry.format,
      fileName: entry.fileName,
      version: version.version,
      sizeBytes: file.file.sizeBytes,
      createdAt: now,
      expiresAt: new Date(expires * 1000),
      requestedFromIp: request.clientIp.slice(0, 64),
    });
    const query = new URLSearchParams({
      link: linkId,
      account: accountId,
      expires: String(expires),
      signature: signLink(settings.secret, claims),
    });
    return {
      url: `${settings.publicBaseUrl}${filePath('files', version.version, entry.fileName)}?${query.toString()}`,
      expiresAt: new Date(expires * 1000),
      file,
      remainingToday: Math.max(0, settings.dailyLimit - count),
    };
  }

  /** Links the account may still create today. */
  async remainingToday(accountId: string): Promise<number> {
    const used = await this.deps.counter.used(accountId, utcDay(this.deps.clock.now()));
    return Math.max(0, this.deps.settings.dailyLimit - used);
  }
}

export function dailyLimitReached(limit: number, now: Date): ResourceExhaustedError {
  return new ResourceExhaustedError(`Daily download limit reached (${limit} per day); it resets at 00:00 UTC.`, {
    reason: 'daily_download_limit',
    details: {
      retryAfterSeconds: String(secondsUntilUtcMidnight(now)),
      dailyLimit: String(limit),
      resetsAt: nextUtcMidnight(now).toISOString(),
    },
  });
}
