import { useState } from 'react';
import { Pager, pageCount } from '../../components/pager.js';
import { Link, useSearchParams } from 'react-router';
import type { Schema } from '../../api/face-a.types.js';
import { SearchBox } from '../../components/search-box.js';
import { TableScroll } from '../../components/table-scroll.js';
import { useAsnListQuery } from './more.api.js';

const PAGE_SIZE = 20;

/** /asncorrespondence: ASNs by number, name or organisation keyword, each linking to its detail. */
export function AsnPage() {
  const [params, setParams] = useSearchParams();
  const keyword = params.get('keyword') ?? '';
  const [page, setPage] = useState(1);
  const list = useAsnListQuery({ page, page_size: PAGE_SIZE, ...(keyword ? { keyword } : {}) });
  const rows = (list.data?.list ?? []) as Schema<'AsnSummary'>[];
  const pages = pageCount(list.data?.total, PAGE_SIZE);

  return (
    <section className="page">
      <h1>ASN 对应关系</h1>
      <SearchBox
        key={keyword}
        label="ASN 号码、名称或组织"
        placeholder="如 AS4134、13335 或 China Telecom"
        initial={keyword}
        onSearch={(value) => {
          setPage(1);
          setParams({ keyword: value });
        }}
      />
      {list.data && (
        <section className="card" aria-live="polite">
          <h2>共 {list.data.total.toLocaleString('zh-CN')} 个 ASN</h2>
          <TableScroll label="ASN 列表">
            <table className="result-table">
              <thead>
                <tr>
                  <th scope="col">ASN</th>
                  <th scope="col">名称</th>
                  <th scope="col">国家/地区</th>
                  <th scope="col">IPv4 前缀</th>
                  <th scope="col">IPv6 前缀</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.asn}>
                    <td>
                      <Link to={`/asncorrespondence/detail?asn=${row.asn}`}>{row.asn_text}</Link>
                    </td>
                    <td>{row.name ?? row.organization ?? '—'}</td>
                    <td>{row.country_name ?? row.country_code ?? '—'}</td>
                    <td className="number">{row.ipv4_prefix_count.toLocaleString('zh-CN')}</td>
                    <td className="number">{row.ipv6_prefix_count.toLocaleString('zh-CN')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager page={page} pages={pages} onPage={setPage} />
        </section>
      )}
    </section>
  );
}
