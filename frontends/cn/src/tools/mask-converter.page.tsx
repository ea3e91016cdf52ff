import { convertMask } from './mask-converter.tool.js';
import { ToolForm, rowsOf } from './tool-form.js';

export function MaskConverterPage() {
  return (
    <section className="page">
      <h1>子网掩码转换</h1>
      <p>输入子网掩码（255.255.255.0、ffff:ffff::）或前缀长度（24、/64），互相换算。</p>
      <ToolForm
        title="掩码换算"
        submitLabel="转换"
        fields={[
          {
            name: 'family',
            label: '前缀长度按',
            options: [
              { value: '4', label: 'IPv4' },
              { value: '6', label: 'IPv6' },
            ],
          },
          { name: 'mask', label: '子网掩码或前缀长度', placeholder: '255.255.255.0 或 24' },
        ]}
        compute={({ family, mask = '' }) =>
          rowsOf(convertMask(mask, family === '6' ? 6 : 4), (m) => [
            ['类型', m.family === 4 ? 'IPv4' : 'IPv6'],
            ['前缀长度', `/${m.prefix}`],
            ['子网掩码', m.mask],
            ...(m.wildcard ? ([['反掩码', m.wildcard]] as [string, string][]) : []),
            ...(m.binary ? ([['二进制', m.binary]] as [string, string][]) : []),
            ['地址数量', m.addresses],
          ])
        }
      />
    </section>
  );
}
