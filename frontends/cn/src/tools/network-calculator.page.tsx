import { calculateNetwork } from './network-calculator.tool.js';
import { ToolForm, rowsOf } from './tool-form.js';

export function NetworkCalculatorPage() {
  return (
    <section className="page">
      <h1>网络计算器</h1>
      <p>输入 CIDR 网段（IPv4 或 IPv6），计算地址范围与数量；可同时判断某个地址是否属于该网段。</p>
      <ToolForm
        title="网段计算"
        fields={[
          { name: 'cidr', label: 'CIDR 网段', placeholder: '10.0.0.0/8 或 2001:db8::/32' },
          { name: 'ip', label: '判断地址', placeholder: '10.1.2.3', optional: true },
        ]}
        compute={({ cidr = '', ip = '' }) =>
          rowsOf(calculateNetwork(cidr, ip), (n) => [
            ['类型', n.family === 4 ? 'IPv4' : 'IPv6'],
            ['网段', n.cidr],
            ['起始地址', n.first],
            ['结束地址', n.last],
            ['地址数量', n.size],
            ['子网掩码', n.mask],
            ...(n.contains === null ? [] : ([['地址是否在网段内', n.contains ? '是' : '否']] as [string, string][])),
          ])
        }
      />
    </section>
  );
}
