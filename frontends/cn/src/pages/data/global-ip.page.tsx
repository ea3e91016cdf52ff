import { useState } from 'react';
import { Pager, pageCount } from '../../components/pager.js';
import { TableScroll } from '../../components/table-scroll.js';
import type { Schema } from '../../api/face-a.types.js';
import { useGlobalCountryCountQuery, useGlobalCountryTrendQuery, useGlobalIpTotalQuery } from './data.api.js';
import { formatCount, LookupTrendChart } from './trend-chart.js';

const PAGE_SIZE = 50;

// The answer's `list` is Paged's unknown[] intersected with CountryRow[]: read as the rows it is.
function countryRows(list: readonly unknown[] | undefined): Schema<'CountryRow'>[] {
  return (list ?? []) as Schema<'CountryRow'>[];
}

/** /datasupport/globalip: the dataset's addresses worldwide and per country (paged), lookups per day. */
export function GlobalIpPage() {
  const [page, setPage] = useState(1);
  const total = useGlobalIpTotalQuery();
  const countries = useGlobalCountryCountQuery({ page, page_size: PAGE_SIZE });
  const trend = useGlobalCountryTrendQuery({ days: 30 });
  const pages = pageCount(countries.data?.total, PAGE_SIZE);

  return (
    <section className="page">
      <h1>全球 IP 数据</h1>
      {total.data && (
        <dl className="facts card">
          <div>
            <dt>IPv4 地址</dt>
            <dd>{formatCount(total.data.addresses.ipv4)}</dd>
          </div>
          <div>
            <dt>IPv6（折合 /32 段）</dt>
            <dd>{formatCount(total.data.addresses.ipv6_slash32)}</dd>
          </div>
          <div>
            <dt>国家和地区</dt>
            <dd>{formatCount(total.data.countries)}</dd>
          </div>
          <div>
            <dt>中国 IPv4</dt>
            <dd>{formatCount(total.data.china.ipv4)}</dd>
          </div>
          <div>
            <dt>IDC 机构</dt>
            <dd>{formatCount(total.data.idc_organizations)}</dd>
          </div>
          <div>
            <dt>数据版本</dt>
            <dd>{total.data.version}</dd>
          </div>
        </dl>
      )}
      {countries.data && (
        <section className="card">
          <h2>各国家和地区地址数</h2>
          <TableScroll label="各国家和地区地址数表格">
            <table className="result-table">
              <thead>
                <tr>
                  <th scope="col">国家/地区</th>
                  <th scope="col">代码</th>
                  <th scope="col">IPv4 地址数</th>
                  <th scope="col">IPv6（折合 /32 段）</th>
                </tr>
              </thead>
              <tbody>
                {countryRows(countries.data.list).map((row) => (
                  <tr key={row.country_code}>
                    <td>{row.name}</td>
                    <td>{row.country_code}</td>
                    <td className="number">{formatCount(row.ipv4)}</td>
                    <td className="number">{formatCount(row.ipv6_slash32)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <Pager page={page} pages={pages} onPage={setPage} />
        </section>
      )}
      {trend.data && (
        <section className="card">
          <h2>近 30 天本站查询量</h2>
          <LookupTrendChart trend={trend.data.lookups} label="近 30 天查询量" />
        </section>
      )}
    </section>
  );
}
