/** A signed link as stored (download_links): what it grants, and whether it was served. */
export interface DownloadLink {
  linkId: string;
  accountId: string;
  database: string;
  format: string;
  fileName: string;
  version: string;
  sizeBytes: number;
  createdAt: Date;
  expiresAt: Date;
  /** The address of the client that asked for the link (CreateDownloadLinkRequest.client_ip), for audits. */
  requestedFromIp: string;
  /** Set once, when the file server first served the link: the download of the history. */
  served?: { at: Date; clientIp: string } | undefined;
}

/** One row of an account's history (a served link). */
export interface DownloadRecord {
  downloadId: string;
  downloadedAt: Date;
  clientIp: string;
  database: string;
  format: string;
  fileName: string;
  version: string;
  sizeBytes: number;
}

export interface LinkStore {
  create(link: DownloadLink): Promise<void>;
  get(linkId: string): Promise<DownloadLink | null>;
  /**
   * Records the download of a link that was never served, with its DownloadRecorded event in the
   * same write (outbox). True when this call recorded it, false when it was recorded before.
   */
  recordServed(link: DownloadLink, served: { at: Date; clientIp: string }): Promise<boolean>;
  /** Served links of an account, newest first. */
  history(accountId: string, page: { skip: number; limit: number }): Promise<{ records: DownloadRecord[]; total: number }>;
  /** Versions that links not expired at `now` point to (pruning leaves them alone). */
  versionsWithLiveLinks(now: Date): Promise<Set<string>>;
}

/** Links created per account and UTC day (the daily limit). */
export interface DailyCounter {
  /** Counts one more link unless `limit` are counted already: the new count, or null when refused. */
  take(accountId: string, day: string, limit: number): Promise<number | null>;
  used(accountId: string, day: string): Promise<number>;
}
