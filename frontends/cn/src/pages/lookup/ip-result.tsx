import type { IpView } from '../../api/face-a.types.js';

const PROXY_NAMES: Record<keyof IpView['proxy'], string> = {
  is_vpn: 'VPN',
  is_tor: 'Tor',
  is_data_center: '数据中心',
  is_proxy: '代理',
  is_relay: '中继',
  is_hosting: '托管',
};

/** The rows a visitor reads first; empty values show as "—" rather than disappear. */
function rows(view: IpView): [string, string][] {
  const location = [view.country, view.province, view.city].filter(Boolean).join(' ');
  const proxies = Object.entries(view.proxy)
    .filter(([, set]) => set)
    .map(([flag]) => PROXY_NAMES[flag as keyof IpView['proxy']]);
  return [
    ['IP 地址', view.ip],
    ['归属地', view.reserved ? '保留地址（内网或特殊用途）' : location || '未知'],
    ['运营商', view.isp ?? '—'],
    ['ASN', view.asn ? `AS${view.asn}${view.asn_name ? ` ${view.asn_name}` : ''}` : '—'],
    ['网段', view.network ?? '—'],
    [
      '经纬度',
      view.latitude !== null && view.longitude !== null ? `${view.latitude.toFixed(4)}, ${view.longitude.toFixed(4)}` : '—',
    ],
    ['时区', view.time_zone ? `${view.time_zone}${view.utc_offset ? ` (UTC${view.utc_offset})` : ''}` : '—'],
    ['代理检测', proxies.length > 0 ? proxies.join('、') : '未发现'],
  ];
}

/** One address's answer as a definition list. */
export function IpResult({ view, title = '查询结果' }: { view: IpView; title?: string }) {
  return (
    <section className="card ip-result" aria-label={title}>
      <h2>{title}</h2>
      <dl className="facts">
        {rows(view).map(([name, value]) => (
          <div key={name}>
            <dt>{name}</dt>
            <dd data-field={name}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
