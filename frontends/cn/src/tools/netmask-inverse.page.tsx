import { netmaskToWildcard, wildcardToNetmask, type InverseMask } from './netmask-inverse.tool.js';
import { ToolForm, rowsOf, type ResultRows } from './tool-form.js';

const rows = (m: InverseMask): ResultRows => [
  ['子网掩码', m.netmask],
  ['反掩码', m.wildcard],
  ['前缀长度', `/${m.prefix}`],
];

export function NetmaskInversePage() {
  return (
    <section className="page">
      <h1>反掩码计算</h1>
      <p>反掩码（通配符掩码）用于 ACL 与 OSPF 配置，是子网掩码按位取反的结果。</p>
      <ToolForm
        title="子网掩码转反掩码"
        submitLabel="转换"
        fields={[{ name: 'mask', label: '子网掩码', placeholder: '255.255.255.0' }]}
        compute={({ mask = '' }) => rowsOf(netmaskToWildcard(mask), rows)}
      />
      <ToolForm
        title="反掩码转子网掩码"
        submitLabel="转换"
        fields={[{ name: 'wildcard', label: '反掩码', placeholder: '0.0.0.255' }]}
        compute={({ wildcard = '' }) => rowsOf(wildcardToNetmask(wildcard), rows)}
      />
    </section>
  );
}
