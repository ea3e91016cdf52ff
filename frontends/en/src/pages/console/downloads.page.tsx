import { useState } from 'react';
import { Link } from 'react-router';
import { webApi } from '../../api/web.api.js';
import type { DatabaseFile, Plan } from '../../api/web-api.types.js';
import { leavePageFor } from '../leave-page.js';
import { formatBytes, formatCount, formatDate, formatDateTime } from './format.js';
import { Pager } from './pager.js';
import './console.css';

const HISTORY_PAGE_SIZE = 20;

const DATABASE_NAMES: Readonly<Record<string, string>> = {
  geolocation: 'IP geolocation',
  privacy: 'Privacy detection',
  asn: 'ASN',
  complete: 'Complete',
};
/** What a name alone does not say. */
const DATABASE_NOTES: Readonly<Record<string, string>> = { complete: 'Geolocation, privacy and ASN' };
const FORMAT_NAMES: Readonly<Record<string, string>> = {
  csv: 'CSV',
  ndjson: 'JSON (NDJSON)',
  ipdat: 'IP Data binary',
  mmdb: 'MMDB',
};
const databaseName = (database: string) => DATABASE_NAMES[database] ?? database;
const formatName = (format: string) => FORMAT_NAMES[format] ?? format.toUpperCase();

/** The names of the download plans that include every dataset of the file ("Standard and Business"). */
export function plansIncluding(file: DatabaseFile, plans: readonly Plan[]): string[] {
  const needed = file.datasets ?? [file.database];
  const names: string[] = [];
  for (const plan of plans) {
    if (plan.kind !== 'download' || !needed.every((dataset) => plan.datasets.includes(dataset))) continue;
    if (!names.includes(plan.name)) names.push(plan.name);
  }
  return names;
}

const joinNames = (names: readonly string[]) =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

function FileRow({ file, plans }: { file: DatabaseFile; plans: readonly Plan[] }) {
  const [link, linking] = webApi.useDownloadLinkMutation();
  const [sample, sampling] = webApi.useSampleLinkMutation();
  const type = databaseName(file.database);
  const including = plansIncluding(file, plans);
  // A signed link, valid for minutes: the browser goes there at once and saves the file.
  const go = (answer: { data?: { url: string } }) => {
    if (answer.data) leavePageFor(answer.data.url);
  };
  return (
    <tr data-database={file.database} data-format={file.format}>
      <th scope="row" data-label="Type of data">
        {type}
        {DATABASE_NOTES[file.database] && <span className="file-format">{DATABASE_NOTES[file.database]}</span>}
        <span className="file-format">
          {formatName(file.format)} · <code>{file.file_name}</code>
        </span>
      </th>
      <td data-label="Update frequency">{file.update_frequency}</td>
      <td data-label="Last updated">{formatDate(file.updated_at)}</td>
      <td data-label="Size" className="number">
        {formatBytes(file.size_bytes)}
      </td>
      <td data-label="SHA-256">
        <code className="sha" title={file.sha256}>
          {file.sha256}
        </code>
      </td>
      <td data-label="Actions" className="file-actions">
        <div>
          {file.entitled ? (
            <button
              type="button"
              className="button primary"
              disabled={linking.isLoading}
              onClick={() => void link({ database: file.database, format: file.format }).then(go)}
            >
              Download
            </button>
          ) : (
            <p className="not-included">
              {including.length > 0
                ? `In the ${joinNames(including)} plan${including.length > 1 ? 's' : ''}. `
                : 'Not in your plan. '}
              <Link to="/pricing">See pricing</Link>
            </p>
          )}
          {file.sample_url && (
            <button
              type="button"
              className="button"
              disabled={sampling.isLoading}
              onClick={() => void sample({ database: file.database, format: file.format }).then(go)}
            >
              Sample
            </button>
          )}
        </div>
      </td>
    </tr>
  );
}

function History() {
  const [page, setPage] = useState(1);
  const history = webApi.useDownloadHistoryQuery(page);
  const data = history.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / HISTORY_PAGE_SIZE)) : 1;
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Download history</h2>
      {data && (
        <p>
          Downloads left today: <strong data-remaining-today>{formatCount(data.remaining_today)}</strong> of{' '}
          {formatCount(data.daily_limit)}.
        </p>
      )}
      {history.isLoading && <p className="loading">Loading your downloads…</p>}
      {data && data.total === 0 && <p>No downloads yet.</p>}
      {data && data.downloads.length > 0 && (
        <>
          <div className="table-scroll">
            <table className="history-table">
              <caption className="visually-hidden">Download history</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">File</th>
                  <th scope="col">IP address</th>
                </tr>
              </thead>
              <tbody>
                {data.downloads.map((record) => (
                  <tr key={record.id} data-download={record.id}>
                    <td>{formatDateTime(record.downloaded_at)}</td>
                    <td>
                      {record.file_name}
                      {record.version && <span className="figure-note"> (version {record.version})</span>}
                    </td>
                    <td>
                      <code>{record.ip}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={data.page} pages={pages} label="Download history pages" onPage={setPage} />
        </>
      )}
    </section>
  );
}

/** Data downloads: the files of the current version, what the plan includes, samples, and the history. */
export function DownloadsPage() {
  const catalogue = webApi.useDatabasesQuery();
  const plans = webApi.usePlansQuery();
  const data = catalogue.data;
  return (
    <div className="console-page">
      <h1>Data downloads</h1>
      {data && (
        <p>
          Your download plan: <strong data-download-plan>{data.plan.name ?? 'Free'}</strong>
          {data.version && <> · database version {data.version}</>}. <Link to="/pricing">Change plan</Link>
        </p>
      )}
      {catalogue.isLoading && <p className="loading">Loading the databases…</p>}
      {data && (
        <section aria-labelledby="files-heading">
          <h2 id="files-heading">Files</h2>
          <div className="table-scroll">
            <table className="files-table stack-on-phone">
              <caption className="visually-hidden">Database files</caption>
              <thead>
                <tr>
                  <th scope="col">Type of data</th>
                  <th scope="col">Update frequency</th>
                  <th scope="col">Last updated</th>
                  <th scope="col" className="number">
                    Size
                  </th>
                  <th scope="col">SHA-256</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.databases.map((file) => (
                  <FileRow key={`${file.database}.${file.format}`} file={file} plans={plans.data?.plans ?? []} />
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <History />
    </div>
  );
}
