import { useState } from 'react';
import { Pager } from '../../components/pager.js';
import { Link, useSearchParams } from 'react-router';
import type { FaceAError } from '../../api/base-query.js';
import { useAsnRelationsQuery } from './more.api.js';

const PAGE_SIZE = 50;

/** /asncorrespondence/detail?asn=: one ASN, its prefixes (paged) and the other ASNs of its organisation. */
export function AsnDetailPage() {
  const [params] = useSearchParams();
  const asn = params.get('asn') ?? '';
  const [page, setPage] = useState(1);
  const relations = useAsnRelationsQuery({ asn, page, page_size: PAGE_SIZE }, { skip: asn === '' });
  const data = relations.data;

  if (!asn) {
    return (
      <section className="page">
        <h1>ASN 详情</h1>
        <p>
          请先在 <Link to="/asncorrespondence">ASN 对应关系</Link> 中选择一个 ASN。
        </p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>ASN 详情 · {data?.asn.asn_text ?? asn}</h1>
      {relations.isError && (
        <p className="field-error" role="alert">
          {(relations.error as FaceAError).msg}
        </p>
      )}
      {data && (
        <>
          <dl className="facts card">
            <div>
              <dt>名称</dt>
              <dd>{data.asn.name ?? '—'}</dd>
            </div>
            <div>
              <dt>组织</dt>
              <dd>{data.organization?.name ?? data.asn.organization ?? '—'}</dd>
            </div>
            <div>
              <dt>国家/地区</dt>
              <dd>{data.asn.country_name ?? '—'}</dd>
            </div>
            <div>
              <dt>IPv4 / IPv6 前缀</dt>
              <dd>
                {data.asn.ipv4_prefix_count} / {data.asn.ipv6_prefix_count}
              </dd>
            </div>
          </dl>
          <section className="card">
            <h2>同组织的其他 ASN（{data.siblings_total}）</h2>
            {data.siblings.length === 0 ? (
              <p className="muted">无</p>
            ) : (
              <ul className="link-list">
                {data.siblings.map((sibling) => (
                  <li key={sibling.asn}>
                    <Link to={`/asncorrespondence/detail?asn=${sibling.asn}`} onClick={() => setPage(1)}>
                      {sibling.asn_text} {sibling.name ?? ''}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section className="card">
            <h2>前缀</h2>
            <ul className="link-list prefix-list">
              {data.prefixes.map((prefix) => (
                <li key={prefix}>
                  <code>{prefix}</code>
                </li>
              ))}
            </ul>
            <Pager page={page} hasNext={data.prefixes.length === PAGE_SIZE} onPage={setPage} />
          </section>
        </>
      )}
    </section>
  );
}
