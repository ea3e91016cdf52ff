import { useSearchParams } from 'react-router';
import type { FaceAError } from '../../api/base-query.js';
import { SearchBox } from '../../components/search-box.js';
import { IpResult } from '../lookup/ip-result.js';
import { useDomainQueryQuery } from './more.api.js';

/** /yuming: a domain's A and AAAA addresses, each looked up. */
export function DomainPage() {
  const [params, setParams] = useSearchParams();
  const domain = params.get('domain') ?? '';
  // ip_search_domain is silent (spec section 7): its failure shows here, not as a toast.
  const answer = useDomainQueryQuery({ domain }, { skip: domain === '' });
  return (
    <section className="page">
      <h1>域名查询</h1>
      <SearchBox
        key={domain}
        label="域名"
        placeholder="如 example.com"
        initial={domain}
        busy={answer.isFetching}
        validate={(value) => (/^[^\s/:]+\.[^\s/:]+$/u.test(value) ? null : '请输入正确的域名')}
        onSearch={(value) => setParams({ domain: value })}
      />
      {answer.isError && (
        <p className="field-error" role="alert">
          {(answer.error as FaceAError).msg || '查询失败，请稍后再试'}
        </p>
      )}
      {answer.data && (
        <>
          <p className="muted">
            {answer.data.domain} 解析到 {answer.data.addresses.length} 个地址
          </p>
          {answer.data.addresses.map((view) => (
            <IpResult key={view.ip} view={view} title={view.ip} />
          ))}
        </>
      )}
    </section>
  );
}
