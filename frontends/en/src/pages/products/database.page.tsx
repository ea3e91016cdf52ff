import { useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { webApi } from '../../api/web.api.js';
import type { DatabaseFile } from '../../api/web-api.types.js';
import { PRODUCT_NAMES, type Product } from '../../routes/products.js';
import { leavePageFor } from '../leave-page.js';
import { FieldTable } from './field-table.js';
import { PRODUCT_FACTS } from './product-facts.js';
import { pageForProduct } from './product-page.js';
import '../marketing.css';

/** The files' formats (the downloads service's catalogue), in words. */
export const FORMAT_NAMES: Readonly<Record<string, string>> = {
  csv: 'CSV',
  ndjson: 'JSON (NDJSON, one object per line)',
  ipdat: 'Our binary format (.ipdat)',
  mmdb: 'MMDB (MaxMind DB readers)',
};

/** Spec section 9: what the downloads page says, whatever a file's record says. */
export const UPDATE_FREQUENCY = 'every 7 days';

const formatName = (format: string) => FORMAT_NAMES[format] ?? format.toUpperCase();

function size(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1e3))} kB`;
}

const day = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }) : '—';

/** The sample: the web API's link (first 1,000 rows), then the browser goes there to save it. */
function SampleButton({ product, format }: { product: Product; format: string }) {
  const [sampleLink, state] = webApi.useSampleLinkMutation();
  const [started, setStarted] = useState(false);
  const download = async () => {
    const answer = await sampleLink({ database: product, format });
    if (answer.data) {
      setStarted(true);
      leavePageFor(answer.data.url);
    }
  };
  return (
    <>
      <button type="button" className="button" disabled={state.isLoading} onClick={() => void download()}>
        Download {format.toUpperCase()} sample
      </button>
      {started && (
        <span role="status" className="sample-started">
          Your download has started
        </span>
      )}
    </>
  );
}

function FileRow({ file, product }: { file: DatabaseFile; product: Product }) {
  return (
    <tr>
      <th scope="row">
        {formatName(file.format)}
        {file.database === 'complete' && <span className="edition">Complete edition: all three datasets</span>}
      </th>
      {/* data-label: the column's name, shown before each value where a phone stacks the row. */}
      <td data-label="File">{file.file_name}</td>
      <td data-label="Size">{size(file.size_bytes)}</td>
      <td data-label="Rows">{file.row_count?.toLocaleString('en-US') ?? '—'}</td>
      <td data-label="Sample">{file.sample_url ? <SampleButton product={product} format={file.format} /> : 'Full file only'}</td>
    </tr>
  );
}

/** A database page (spec section 2): what it holds, formats, how often it changes, a sample. */
function DatabasePage({ product }: { product: Product }) {
  const facts = PRODUCT_FACTS[product];
  const catalogue = webApi.useDatabasesQuery();
  const plans = webApi.usePlansQuery();
  const files = (catalogue.data?.databases ?? []).filter((file) => file.database === product || file.database === 'complete');
  const own = files.find((file) => file.database === product);
  const including = [
    ...new Set(
      (plans.data?.plans ?? [])
        .filter((plan) => plan.kind === 'download' && plan.datasets.includes(product))
        .map((plan) => (plan.tier === 'free' ? 'FREE' : plan.name)),
    ),
  ];
  return (
    <article className="product-page">
      <header className="product-hero">
        <p className="eyebrow">Database</p>
        <h1>{PRODUCT_NAMES[product]} database</h1>
        <p className="hero-lead">{facts.databaseLead}</p>
        <dl className="facts">
          <div>
            <dt>Updated</dt>
            <dd>{UPDATE_FREQUENCY}</dd>
          </div>
          <div>
            <dt>Last update</dt>
            <dd>{own ? day(own.updated_at) : '—'}</dd>
          </div>
          <div>
            <dt>Ranges</dt>
            <dd>{own?.row_count?.toLocaleString('en-US') ?? '—'}</dd>
          </div>
          <div>
            <dt>Formats</dt>
            <dd>CSV, JSON, binary, MMDB</dd>
          </div>
        </dl>
      </header>

      <section className="product-section" aria-labelledby="files-title">
        <h2 id="files-title">Formats and a free sample</h2>
        <p>
          Each file is rebuilt {UPDATE_FREQUENCY}. The samples hold the first 1,000 rows of the file, free and without an account.
        </p>
        {catalogue.isLoading && <p className="loading">Loading the files…</p>}
        {files.length > 0 && (
          <div>
            <table className="files-table">
              <caption className="visually-hidden">Files of the {PRODUCT_NAMES[product]} database</caption>
              <thead>
                <tr>
                  <th scope="col">Format</th>
                  <th scope="col">File</th>
                  <th scope="col">Size</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Sample</th>
                </tr>
              </thead>
              <tbody>
                {files.map((file) => (
                  <FileRow key={`${file.database}-${file.format}`} file={file} product={product} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="product-section" aria-labelledby="holds-title">
        <h2 id="holds-title">What it holds</h2>
        <FieldTable caption="Columns of the CSV file" fields={facts.columns} />
        <p>The JSON file has the same members, one range per line; the binary and MMDB files answer lookups by address.</p>
      </section>

      <section className="product-section next-steps" aria-labelledby="get-title">
        <h2 id="get-title">Get the full database</h2>
        <p>
          {including.length > 0 ? `Included in the ${including.join(', ')} data download plans. ` : ''}
          Subscribers download the files in the user centre, with their size and sha256.
        </p>
        <p className="actions">
          <Link className="button primary" to="/pricing?tab=download">
            See data download plans
          </Link>
          <Link className="button" to={`/products/${product}`}>
            {PRODUCT_NAMES[product]} API
          </Link>
        </p>
      </section>
    </article>
  );
}

/** The route table's page for one database. */
export function databasePage(product: Product): ComponentType {
  return pageForProduct(DatabasePage, product, 'DatabasePage');
}
