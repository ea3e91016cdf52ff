import { Link, useNavigate } from 'react-router';
import { SearchBox } from '../../components/search-box.js';
import { useReportExamplesQuery } from './lookup.api.js';
import { validateIp } from './ip-lookup.page.js';

/** /ipreport: pick an address (or one of the examples) for a full report. */
export function ReportPage() {
  const navigate = useNavigate();
  const examples = useReportExamplesQuery();
  const open = (ip: string) => void navigate(`/ipreport/detail?ip=${encodeURIComponent(ip)}`);
  return (
    <section className="page">
      <h1>IP 地址报告</h1>
      <p className="muted">
        一份报告汇总地址的地理位置、网络与 ASN、代理与数据中心检测（附判定依据）、反向解析，以及每个数据源各自的答案，可下载 PDF
        或 Excel。
      </p>
      <SearchBox label="IP 地址" placeholder="如 114.114.114.114" buttonLabel="生成报告" validate={validateIp} onSearch={open} />
      {examples.data && examples.data.length > 0 && (
        <section className="card">
          <h2>示例报告</h2>
          <ul className="link-list">
            {examples.data.map((example) => (
              <li key={example.ip}>
                <Link to={`/ipreport/detail?ip=${encodeURIComponent(example.ip)}`}>
                  {example.label}（{example.ip}）
                </Link>
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}
