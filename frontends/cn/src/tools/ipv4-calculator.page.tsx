import { calculateIpv4Subnet } from './ipv4-calculator.tool.js';
import { ToolForm, rowsOf } from './tool-form.js';

export function Ipv4CalculatorPage() {
  return (
    <section className="page">
      <h1>IPv4 子网计算器</h1>
      <p>输入 IP 地址与子网掩码（或前缀长度），计算所在网络。也可直接输入 192.168.1.10/24。</p>
      <ToolForm
        title="子网计算"
        fields={[
          { name: 'ip', label: 'IP 地址', placeholder: '192.168.1.10' },
          { name: 'mask', label: '子网掩码或前缀长度', placeholder: '255.255.255.0 或 24', optional: true },
        ]}
        compute={({ ip = '', mask = '' }) =>
          rowsOf(calculateIpv4Subnet(ip, mask), (s) => [
            ['CIDR', s.cidr],
            ['子网掩码', s.mask],
            ['反掩码', s.wildcard],
            ['网络地址', s.network],
            ['广播地址', s.broadcast],
            ['第一个可用地址', s.firstHost],
            ['最后一个可用地址', s.lastHost],
            ['地址总数', s.addresses],
            ['可用主机数', s.usableHosts],
            ['地址类别', `${s.ipClass} 类`],
            ['私有地址', s.isPrivate ? '是' : '否'],
            ['IP 二进制', s.binaryIp],
            ['掩码二进制', s.binaryMask],
          ])
        }
      />
    </section>
  );
}
