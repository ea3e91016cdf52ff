import { useState, type FormEvent } from 'react';
import { useLazyIpSearchZoneQuery } from '../../api/face-a.api.js';
import type { IpView } from '../../api/face-a.types.js';
import { ChinaMap, WorldMap } from '../../charts/lazy-charts.js';
import { shortProvinceName } from '../../charts/province-names.js';
import { TableScroll } from '../../components/table-scroll.js';
import { isIpv4, isIpv6 } from '../../tools/ip-input.js';

/** Each address is one lookup against the visitor's limit: a map is for a handful, not a batch. */
export const VISUALIZE_MAX = 50;

export function parseAddresses(text: string): { valid: string[]; invalid: string[] } {
  const items = [...new Set(text.split(/[\s,;，；]+/).filter(Boolean))];
  return {
    valid: items.filter((item) => isIpv4(item) || isIpv6(item)),
    invalid: items.filter((item) => !isIpv4(item) && !isIpv6(item)),
  };
}

/** /visualizeip: up to 50 addresses on a world map, and Chinese ones shaded by province. */
export function VisualizePage() {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [views, setViews] = useState<IpView[]>([]);
  const [done, setDone] = useState(0);
  const [busy, setBusy] = useState(false);
  const [lookup] = useLazyIpSearchZoneQuery();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { valid, invalid } = parseAddresses(text);
    if (valid.length === 0) return setProblem('请输入至少一个正确的 IP 地址');
    if (valid.length > VISUALIZE_MAX) return setProblem(`一次最多 ${VISUALIZE_MAX} 个地址，批量查询请用“批量查询”`);
    setProblem(invalid.length > 0 ? `已忽略无效的输入：${invalid.slice(0, 5).join('、')}` : null);
    setBusy(true);
    setDone(0);
    const found: IpView[] = [];
    for (const ip of valid) {
      const answer = await lookup({ ip }, true);
      if (answer.data) found.push(answer.data);
      setDone((count) => count + 1);
    }
    setViews(found);
    setBusy(false);
  };

  const located = views.filter((view) => view.latitude !== null && view.longitude !== null);
  const provinces: Record<string, number> = {};
  for (const view of views) {
    if (view.country_code === 'CN' && view.province) {
      const name = shortProvinceName(view.province);
      provinces[name] = (provinces[name] ?? 0) + 1;
    }
  }
  const total = parseAddresses(text).valid.length;

  return (
    <section className="page">
      <h1>IP 可视化</h1>
      <form className="card" onSubmit={(event) => void submit(event)} noValidate>
        <label className="field">
          <span>IP 地址（每行一个，或用空格、逗号分隔，最多 {VISUALIZE_MAX} 个）</span>
          <textarea rows={5} value={text} onChange={(event) => setText(event.target.value)} spellCheck={false} />
        </label>
        <button type="submit" disabled={busy}>
          显示在地图上
        </button>
        {busy && <progress className="progress" max={total} value={done} aria-label="查询进度" />}
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
      </form>
      {views.length > 0 && (
        <>
          <section className="card">
            <h2>全球分布（{located.length} 个地址有位置）</h2>
            <WorldMap
              label={`${located.length} 个地址在世界地图上的位置（见下表）`}
              points={located.map((view) => ({ name: view.ip, latitude: view.latitude!, longitude: view.longitude! }))}
            />
          </section>
          {Object.keys(provinces).length > 0 && (
            <section className="card">
              <h2>中国各省分布</h2>
              <ChinaMap values={provinces} seriesName="地址数" label="中国地址按省份的分布（见下表）" />
            </section>
          )}
          <TableScroll label="查询结果">
            <table className="result-table">
              <thead>
                <tr>
                  <th scope="col">IP</th>
                  <th scope="col">归属地</th>
                  <th scope="col">经纬度</th>
                </tr>
              </thead>
              <tbody>
                {views.map((view) => (
                  <tr key={view.ip}>
                    <td>{view.ip}</td>
                    <td>{view.reserved ? '保留地址' : view.area || '—'}</td>
                    <td>
                      {view.latitude !== null && view.longitude !== null
                        ? `${view.latitude.toFixed(2)}, ${view.longitude.toFixed(2)}`
                        : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </section>
  );
}
