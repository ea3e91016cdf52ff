import { useState } from 'react';
import { Pager, pageCount } from '../../components/pager.js';
import { TableScroll } from '../../components/table-scroll.js';
import type { Schema } from '../../api/face-a.types.js';
import { useIdcListQuery, useIdcProvincesQuery } from './data.api.js';
import { formatCount } from './trend-chart.js';

const PAGE_SIZE = 20;

/** /idccompany: the IDC organisations of the dataset, filtered by province. */
export function IdcCompanyPage() {
  const [province, setProvince] = useState('');
  const [page, setPage] = useState(1);
  const provinces = useIdcProvincesQuery();
  const list = useIdcListQuery({ page, page_size: PAGE_SIZE, ...(province ? { province } : {}) });
  const pages = pageCount(list.data?.total, PAGE_SIZE);

  return (
    <section className="page">
      <h1>IDC 公司</h1>
      <label className="field">
        <span>省份</span>
        <select
          value={province}
          onChange={(event) => {
            setProvince(event.target.value);
            setPage(1);
          }}
        >
          <option value="">全部省份</option>
          {(provinces.data?.list ?? [])
            .filter((row) => row.idc_organizations > 0)
            .map((row) => (
              <option key={row.code} value={row.code}>
                {row.name}（{row.idc_organizations}）
              </option>
            ))}
        </select>
      </label>
      {list.data && (
        <section className="card" aria-live="polite">
          <h2>
            {list.data.province?.name ?? '全部省份'}：{list.data.total} 家
          </h2>
          <TableScroll label="IDC 公司表格">
            <table className="result-table">
              <thead>
                <tr>
                  <th scope="col">机构</th>
                  <th scope="col">ASN</th>
                  <th scope="col">IPv4 地址数</th>
                  <th scope="col">网段数</th>
                  <th scope="col">所在省份</th>
                </tr>
              </thead>
              <tbody>
                {((list.data.list ?? []) as Schema<'IdcRow'>[]).map((row) => (
                  <tr key={row.organization}>
                    <td>{row.name}</td>
                    <td>{row.asns.map((asn) => `AS${asn}`).join('、')}</td>
                    <td className="number">{formatCount(row.ipv4)}</td>
                    <td className="number">{formatCount(row.prefix_count)}</td>
                    <td>{row.provinces.map((p) => p.short_name).join('、')}</td>
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
