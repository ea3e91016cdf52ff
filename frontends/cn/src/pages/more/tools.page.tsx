import { ToolGrid } from '../../components/tool-grid.js';
import { NAV_LINKS, TOOL_LINKS } from '../../layouts/nav-links.js';

const MORE_LINKS = [
  { to: '/chaxun', label: '综合查询' },
  { to: '/yuming', label: '域名查询' },
  { to: '/asncorrespondence', label: 'ASN 对应关系' },
  { to: '/visualizeip', label: 'IP 可视化' },
  { to: '/onlineapi', label: '在线 API' },
  { to: '/news', label: '资讯' },
  { to: '/vip', label: 'VIP 会员' },
] as const;

/** /tool: every tool of the site in one place. */
export function ToolsPage() {
  const lookups = [
    ...NAV_LINKS.filter((link) => link.to !== '/' && !TOOL_LINKS.some((tool) => tool.to === link.to)),
    ...MORE_LINKS,
  ];
  return (
    <section className="page">
      <h1>工具</h1>
      <h2>查询与数据</h2>
      <ToolGrid links={lookups} />
      <h2>网络计算工具</h2>
      <ToolGrid links={TOOL_LINKS} />
    </section>
  );
}
