import { NotFoundError, PermissionDeniedError, type Clock } from '@ipdata/common';
import type { Catalogue } from '../catalogue/catalogue.js';
import { entryForFile, entryForSample, type CatalogueEntry } from '../catalogue/catalogue-files.js';
import { isVersionName, type VersionFile } from '../catalogue/dataset-version.js';
import type { DownloadLink, LinkStore } from '../links/download-link.js';
import { signatureMatches } from '../links/link-signature.js';
import { isAccountId } from '../links/request-checks.js';

/** A file the server may send: which version folder, which file, and its manifest facts. */
export interface ServableFile {
  version: string;
  file: VersionFile;
  entry: CatalogueEntry;
  /** The signed link (downloads); undefined for samples. */
  link: DownloadLink | undefined;
}

/** One refusal for every way a link can be wrong, so a prober learns nothing about which part failed. */
function invalidLink(): PermissionDeniedError {
  return new PermissionDeniedError('This download link is not valid. Ask for a new one.', { reason: 'invalid_link' });
}

/**
 * Decides whether a request of the file server may be served, before any byte is: a signed link
 * must carry a signature over exactly its link id, account, version, file and expiry (compared in
 * constant time), must not be expired, and must be a link this service issued for the same
 * account, version and file. A sample needs no link, only a known version that has it.
 */
export class FileAccess {
  constructor(private readonly deps: { catalogue: Catalogue; links: LinkStore; secret: string; clock: Clock }) {}

  async signed(version: string, fileName: string, query: URLSearchParams): Promise<ServableFile> {
    const linkId = query.get('link') ?? '';
    const accountId = query.get('account') ?? '';
    const expiresText = query.get('expires') ?? '';
    const signature = query.get('signature') ?? '';
    const entry = entryForFile(fileName);
    if (!entry || !isVersionName(version) || !isAccountId(accountId) || !/^[0-9a-f-]{36}$/.test(linkId)) throw invalidLink();
    if (!/^\d{1,12}$/.test(expiresText)) throw invalidLink();
    const expires = Number(expiresText);
    const claims = { linkId, accountId, version, fileName, expires };
    if (!signatureMatches(this.deps.secret, claims, signature)) throw invalidLink();
    if (expires * 1000 <= this.deps.clock.now().getTime()) {
      throw new PermissionDeniedError('This download link has expired. Ask for a new one.', { reason: 'link_expired' });
    }
    const link = await this.deps.links.get(linkId);
    if (
      !link ||
      link.accountId !== accountId ||
      link.version !== version ||
      link.fileName !== fileName ||
      link.expiresAt.getTime() !== expires * 1000
    ) {
      throw invalidLink();
    }
    const file = await this.fileOf(version, fileName);
    return { version, file, entry, link };
  }

  async sample(version: string, fileName: string): Promise<ServableFile> {
    const entry = entryForSample(fileName);
    if (!entry || !isVersionName(version)) throw new NotFoundError('no such sample', { reason: 'unknown_sample' });
    const file = await this.fileOf(version, fileName);
    return { version, file, entry, link: undefined };
  }

  private async fileOf(versionName: string, fileName: string): Promise<VersionFile> {
    const version = await this.deps.catalogue.version(versionName);
    const file = version?.files.find((candidate) => candidate.name === fileName);
    if (!file) throw new NotFoundError(`dataset ${versionName} has no ${fileName}`, { reason: 'file_not_found' });
    return file;
  }
}
