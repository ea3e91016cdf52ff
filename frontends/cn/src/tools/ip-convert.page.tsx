import { convertIp } from './ip-convert.tool.js';
import { ToolForm, rowsOf } from './tool-form.js';

export function IpConvertPage() {
  return (
    <section className="page">
      <h1>IP 地址格式转换</h1>
      <p>输入 IPv4、IPv6 地址，或十进制、十六进制（0x 开头）整数，得到各种表示形式。</p>
      <ToolForm
        title="转换"
        submitLabel="转换"
        fields={[{ name: 'ip', label: 'IP 地址或整数', placeholder: '192.168.1.1 / 2001:db8::1 / 3232235777' }]}
        compute={({ ip = '' }) =>
          rowsOf(convertIp(ip), (f) => [
            ['类型', f.family === 4 ? 'IPv4' : 'IPv6'],
            [f.family === 4 ? '点分十进制' : '压缩格式', f.address],
            [f.family === 4 ? 'IPv4 映射的 IPv6 地址' : '完整格式', f.expanded],
            ['十进制', f.decimal],
            ['十六进制', f.hex],
            ['二进制', f.binary],
          ])
        }
      />
    </section>
  );
}
