import { useMemo } from 'react';
import { TableScroll } from '../../components/table-scroll.js';
import { ChinaMap } from '../../charts/lazy-charts.js';
import { shortProvinceName } from '../../charts/province-names.js';
import { useChinaProvinceCountQuery, useChinaProvinceTrendQuery, useChinaProvinceUpdateQuery } from './data.api.js';
import { formatChange, formatCount, LookupTrendChart } from './trend-chart.js';

/** /datasupport/chinaip: IPv4 addresses per province (map and table), changes since the last dataset, lookups per day. */
export function ChinaIpPage() {
  const counts = useChinaProvinceCountQuery();
  const update = useChinaProvinceUpdateQuery();
  const trend = useChinaProvinceTrendQuery({ days: 30 });
  const values = useMemo(
    () => Object.fromEntries((counts.data?.list ?? []).map((row) => [shortProvinceName(row.short_name || row.name), row.ipv4])),
    [counts.data],
  );
  const changes = new Map((update.data?.list ?? []).map((row) => [row.code, row]));

  return (
    <section className="page">
      <h1>中国各省 IP 数据</h1>
      {/* The map's place is kept while the counts load, and the trend below waits for them:
          nothing the visitor already sees moves when the answers arrive (Lighthouse CLS). */}
      {counts.isLoading && (
        <>
          <p className="muted">加载中…</p>
          <div className="chart chart-loading china-map-placeholder" aria-hidden="true" />
        </>
      )}
      {counts.data && (
        <>
          <p className="muted">
            数据版本 {counts.data.version}：中国共 <strong>{formatCount(counts.data.addresses.ipv4)}</strong> 个 IPv4 地址、 IPv6
            地址折合 {formatCount(counts.data.addresses.ipv6_slash32)} 个 /32 段
            {update.data?.previous
              ? `；较上一版本（${update.data.previous.version}）变化 ${formatChange(update.data.addresses.ipv4_change)}`
              : ''}
          </p>
          <ChinaMap values={values} seriesName="IPv4 地址数" label="各省 IPv4 地址数地图（数值见下表）" />
          <section className="card">
            <h2>各省地址数</h2>
            <TableScroll label="各省地址数表格">
              <table className="result-table">
                <thead>
                  <tr>
                    <th scope="col">省份</th>
                    <th scope="col">IPv4 地址数</th>
                    <th scope="col">较上一版本</th>
                    <th scope="col">IPv6（折合 /32 段）</th>
                    <th scope="col">IDC 机构</th>
                  </tr>
                </thead>
                <tbody>
                  {[...counts.data.list]
                    .sort((a, b) => b.ipv4 - a.ipv4)
                    .map((row) => (
                      <tr key={row.code} data-province={row.short_name}>
                        <td>{row.name}</td>
                        <td className="number">{formatCount(row.ipv4)}</td>
                        <td className="number">{formatChange(changes.get(row.code)?.ipv4_change ?? null)}</td>
                        <td className="number">{formatCount(row.ipv6_slash32)}</td>
                        <td className="number">{formatCount(row.idc_organizations)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </TableScroll>
          </section>
        </>
      )}
      {counts.data && trend.data && (
        <section className="card">
          <h2>近 30 天本站中国地址查询量</h2>
          <LookupTrendChart trend={trend.data.lookups} label="近 30 天查询量" />
        </section>
      )}
    </section>
  );
}
