import { Link, useNavigate } from 'react-router';
import { ToolGrid } from '../components/tool-grid.js';
import { SearchBox } from '../components/search-box.js';
import { NAV_LINKS, TOOL_LINKS } from '../layouts/nav-links.js';
import { selectIpSelf } from '../store/app.slice.js';
import { useAppSelector } from '../store/hooks.js';

/** Home: the lookup box first (answered on /ip), the visitor's own address, then every tool. */
export function HomePage() {
  const navigate = useNavigate();
  const self = useAppSelector(selectIpSelf);
  return (
    <section className="page">
      <h1>IP 地址查询与网络工具</h1>
      <SearchBox
        label="查询 IP 地址"
        placeholder="输入 IPv4 或 IPv6 地址"
        onSearch={(ip) => void navigate(`/ip?ip=${encodeURIComponent(ip)}`)}
      />
      {self && (
        <p className="muted">
          您的 IP 地址：<Link to="/ip">{self.ip}</Link>
          {self.area ? `（${self.area}）` : ''}
        </p>
      )}
      <h2>查询与数据</h2>
      <ToolGrid links={NAV_LINKS.filter((link) => link.to !== '/' && !TOOL_LINKS.some((tool) => tool.to === link.to))} />
      <h2>网络计算工具</h2>
      <ToolGrid links={TOOL_LINKS} />
    </section>
  );
}
