import { useSearchParams } from 'react-router';
import { SearchBox } from '../../components/search-box.js';
import { isIpv4, isIpv6 } from '../../tools/ip-input.js';
import { IpResult } from '../lookup/ip-result.js';
import { useV2QueryDomainQuery, useV2QueryQuery } from './more.api.js';

/** /chaxun: one box for an address or a domain (the GET calls /v2/query and /v2/queryDomain). */
export function QueryPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const isAddress = isIpv4(q) || isIpv6(q);
  const ip = useV2QueryQuery({ ip: q }, { skip: !q || !isAddress });
  const domain = useV2QueryDomainQuery({ domain: q }, { skip: !q || isAddress });
  const views = isAddress ? (ip.data ? [ip.data] : []) : (domain.data?.addresses ?? []);
  return (
    <section className="page">
      <h1>综合查询</h1>
      <SearchBox
        key={q}
        label="IP 地址或域名"
        placeholder="如 8.8.8.8 或 example.com"
        initial={q}
        busy={ip.isFetching || domain.isFetching}
        validate={(value) =>
          isIpv4(value) || isIpv6(value) || /^[^\s/:]+\.[^\s/:]+$/u.test(value) ? null : '请输入正确的 IP 地址或域名'
        }
        onSearch={(value) => setParams({ q: value })}
      />
      {views.map((view) => (
        <IpResult key={view.ip} view={view} title={`${view.ip} 的查询结果`} />
      ))}
    </section>
  );
}
