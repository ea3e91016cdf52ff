import { Link, useSearchParams } from 'react-router';
import type { FaceAError } from '../../api/base-query.js';
import type { CallData } from '../../api/face-a.types.js';
import { useReportFileMutation, useReportGenerateQuery } from './lookup.api.js';

type Report = CallData<'report_generate'>;

function text(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

function Facts({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="facts">
      {rows.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReportBody({ report }: { report: Report }) {
  const geo = report.geolocation;
  return (
    <>
      <section className="card">
        <h2>地理位置</h2>
        <Facts
          rows={[
            ['归属地', report.reserved ? `保留地址（${report.reserved}）` : text(report.area)],
            ['国家/地区', text(geo.zh.country)],
            ['省份', text(geo.zh.province)],
            ['城市', text(geo.zh.city)],
            ['运营商', text(geo.zh.isp)],
            [
              '经纬度',
              geo.latitude !== null && geo.longitude !== null ? `${geo.latitude.toFixed(4)}, ${geo.longitude.toFixed(4)}` : '—',
            ],
            ['时区', text(geo.time_zone)],
            ['邮编', text(geo.zip_code)],
          ]}
        />
      </section>
      <section className="card">
        <h2>网络与 ASN</h2>
        <Facts
          rows={[
            ['网段', text(report.network.cidr)],
            ['起止地址', report.network.start_ip ? `${report.network.start_ip} – ${text(report.network.end_ip)}` : '—'],
            ['ASN', report.asn ? `AS${report.asn.number}` : '—'],
            ['ASN 名称', text(report.asn?.name)],
            ['组织', text(report.asn?.organization)],
            ['反向解析', report.reverse_dns.names.length > 0 ? report.reverse_dns.names.join('、') : '无'],
          ]}
        />
      </section>
      <section className="card">
        <h2>代理与数据中心检测</h2>
        <table className="result-table">
          <thead>
            <tr>
              <th scope="col">检测项</th>
              <th scope="col">结果</th>
              <th scope="col">判定依据</th>
            </tr>
          </thead>
          <tbody>
            {report.privacy.flags.map((flag) => (
              <tr key={flag.flag}>
                <td>{flag.name}</td>
                <td>{flag.set ? '是' : '否'}</td>
                <td>{flag.rule ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {report.sources.length > 0 && (
        <section className="card">
          <h2>各数据源的答案</h2>
          {report.sources.map((source) => (
            <details key={source.source}>
              <summary>
                {source.name}：{text(source.network)}
              </summary>
              <Facts rows={Object.entries(source.fields)} />
            </details>
          ))}
        </section>
      )}
      <p className="muted">
        数据版本 {text(report.dataset_version)}，生成于 {new Date(report.generated_at).toLocaleString('zh-CN')}
      </p>
    </>
  );
}

/** /ipreport/detail?ip=: the report of one address, with PDF and Excel downloads. */
export function ReportDetailPage() {
  const [params] = useSearchParams();
  const ip = params.get('ip') ?? '';
  const report = useReportGenerateQuery({ ip }, { skip: ip === '' });
  const [download, downloading] = useReportFileMutation();

  if (!ip) {
    return (
      <section className="page">
        <h1>IP 地址报告</h1>
        <p>
          请先<Link to="/ipreport">选择一个 IP 地址</Link>。
        </p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>IP 地址报告 · {ip}</h1>
      <div className="button-row">
        <button
          type="button"
          disabled={downloading.isLoading || !report.data}
          onClick={() => void download({ ip, format: 'pdf' })}
        >
          下载 PDF
        </button>
        <button
          type="button"
          className="button-secondary"
          disabled={downloading.isLoading || !report.data}
          onClick={() => void download({ ip, format: 'xlsx' })}
        >
          下载 Excel
        </button>
      </div>
      {report.isFetching && <p className="muted">报告生成中…</p>}
      {report.isError && (
        <p className="field-error" role="alert">
          {(report.error as FaceAError).msg}
        </p>
      )}
      {report.data && <ReportBody report={report.data} />}
    </section>
  );
}
