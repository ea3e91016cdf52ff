import { Link } from 'react-router';
import { TOOL_LINKS } from '../layouts/nav-links.js';

/** The home page shell: the tools that exist so far. Lookup, statistics and news come with their pages. */
export function HomePage() {
  return (
    <section className="page">
      <h1>IP 地址查询与网络工具</h1>
      <h2>网络计算工具</h2>
      <ul className="tool-grid">
        {TOOL_LINKS.map((tool) => (
          <li key={tool.to}>
            <Link to={tool.to}>{tool.label}</Link>
            <p>{tool.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
