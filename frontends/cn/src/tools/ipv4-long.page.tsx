import { ipv4ToLong, longToIpv4 } from './ipv4-long.tool.js';
import { ToolForm, rowsOf } from './tool-form.js';

export function Ipv4LongPage() {
  return (
    <section className="page">
      <h1>IPv4 与长整数互转</h1>
      <ToolForm
        title="IPv4 转长整数"
        submitLabel="转换"
        fields={[{ name: 'ip', label: 'IPv4 地址', placeholder: '192.168.1.1' }]}
        compute={({ ip = '' }) => rowsOf(ipv4ToLong(ip), (long) => [['长整数', long]])}
      />
      <ToolForm
        title="长整数转 IPv4"
        submitLabel="转换"
        fields={[{ name: 'long', label: '长整数', placeholder: '3232235777' }]}
        compute={({ long = '' }) => rowsOf(longToIpv4(long), (ip) => [['IPv4 地址', ip]])}
      />
    </section>
  );
}
