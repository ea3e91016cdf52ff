import { useSearchParams } from 'react-router';
import { useIpSearchZoneQuery, useIpSelfSearchQuery } from '../../api/face-a.api.js';
import type { FaceAError } from '../../api/base-query.js';
import type { IpView } from '../../api/face-a.types.js';
import { WorldMap } from '../../charts/lazy-charts.js';
import { SearchBox } from '../../components/search-box.js';
import { isIpv4, isIpv6, MSG } from '../../tools/ip-input.js';
import { IpResult } from './ip-result.js';

export function validateIp(value: string): string | null {
  return isIpv4(value) || isIpv6(value) ? null : MSG.badIp;
}

function errorText(error: unknown): string {
  return (error as FaceAError | undefined)?.msg || '查询失败，请稍后再试';
}

/** /ip: the visitor's own address on arrival, any IPv4/IPv6 address on request (?ip=), a map pin. */
export function IpLookupPage() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('ip') ?? '';
  const self = useIpSelfSearchQuery();
  // ip_search_zone is a silent call (spec section 7): its failure is shown here, not as a toast.
  const lookup = useIpSearchZoneQuery({ ip: asked }, { skip: asked === '' });
  const shown: IpView | undefined = asked ? lookup.data : self.data;

  return (
    <section className="page">
      <h1>IP 地址查询</h1>
      <SearchBox
        key={asked}
        label="IP 地址"
        placeholder="输入 IPv4 或 IPv6 地址，如 8.8.8.8"
        initial={asked}
        busy={lookup.isFetching}
        validate={validateIp}
        onSearch={(ip) => setParams({ ip })}
      />
      {!asked && self.data && <p className="muted">您的 IP 地址：{self.data.ip}</p>}
      {asked && lookup.isError && (
        <p className="field-error" role="alert">
          {errorText(lookup.error)}
        </p>
      )}
      {(asked ? lookup.isFetching : self.isLoading) && <p className="muted">查询中…</p>}
      {shown && (
        <div className="lookup-answer">
          <IpResult view={shown} title={asked ? `${shown.ip} 的查询结果` : '您的 IP 信息'} />
          {shown.latitude !== null && shown.longitude !== null && (
            <WorldMap
              label={`${shown.ip} 在地图上的位置：纬度 ${shown.latitude}，经度 ${shown.longitude}`}
              points={[{ name: shown.ip, latitude: shown.latitude, longitude: shown.longitude }]}
              height={320}
            />
          )}
        </div>
      )}
    </section>
  );
}
