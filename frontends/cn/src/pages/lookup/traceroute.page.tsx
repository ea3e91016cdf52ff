import { useId, useState, type FormEvent } from 'react';
import type { FaceAError } from '../../api/base-query.js';
import type { CallData } from '../../api/face-a.types.js';
import { WorldMap } from '../../charts/lazy-charts.js';
import type { MapPoint } from '../../charts/lazy-charts.js';
import { isIpv4, isIpv6 } from '../../tools/ip-input.js';
import { useTracerouteAddMutation, useTracerouteGetQuery, useTracerouteSitesQuery } from './lookup.api.js';

export const POLL_MS = 1_000;
type Progress = CallData<'traceroute_task_get'>;
type Hop = Progress['hops'][number];

const STATE_TEXT: Record<Progress['state'], string> = {
  pending: '排队中',
  running: '探测中',
  done: '已完成',
  failed: '失败',
};

/** An address, or something that looks like a domain name (bff-cn checks it properly). */
export function validateTarget(value: string): string | null {
  if (isIpv4(value) || isIpv6(value)) return null;
  return /^[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+\.?$/u.test(value) ? null : '请输入正确的 IP 地址或域名';
}

function hopPoints(hops: Hop[]): MapPoint[] {
  return hops.flatMap((hop) =>
    hop.ip && hop.location && hop.location.latitude !== null && hop.location.longitude !== null
      ? [{ name: `${hop.ttl}. ${hop.ip}`, latitude: hop.location.latitude, longitude: hop.location.longitude }]
      : [],
  );
}

function rtt(hop: Hop): string {
  return hop.rtt_ms.length > 0 ? hop.rtt_ms.map((ms) => `${ms.toFixed(1)} ms`).join(' / ') : '*';
}

/** /networkdetection: a traceroute from one of our probe sites, hops shown as they arrive. */
export function TraceroutePage() {
  const id = useId();
  const sites = useTracerouteSitesQuery();
  const [target, setTarget] = useState('');
  const [site, setSite] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [add, added] = useTracerouteAddMutation();
  const taskId = added.data?.task_id;
  const latest = useTracerouteGetQuery({ task_id: taskId ?? '' }, { skip: !taskId }).data;
  // The answer of the current task only (a new task's first answer is still on its way).
  const current = latest?.task_id === taskId ? latest : undefined;
  const finished = current?.state === 'done' || current?.state === 'failed';
  // Polled until the task ends: the same query again, now with an interval (one subscription each).
  const task = useTracerouteGetQuery(
    { task_id: taskId ?? '' },
    { skip: !taskId, pollingInterval: finished ? 0 : POLL_MS, skipPollingIfUnfocused: false },
  ).data;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = target.trim();
    const refused = input === '' ? '请输入要探测的 IP 地址或域名' : validateTarget(input);
    setProblem(refused);
    if (refused) return;
    const isAddress = isIpv4(input) || isIpv6(input);
    void add({ ...(isAddress ? { ip: input } : { domain: input }), ...(site ? { site } : {}) });
  };

  const points = task ? hopPoints(task.hops) : [];
  return (
    <section className="page">
      <h1>网络检测（路由追踪）</h1>
      <form className="card" onSubmit={submit} aria-labelledby={`${id}-title`} noValidate>
        <h2 id={`${id}-title`}>发起探测</h2>
        <label className="field">
          <span>目标 IP 或域名</span>
          <input value={target} onChange={(event) => setTarget(event.target.value)} placeholder="如 8.8.8.8 或 example.com" />
        </label>
        <label className="field">
          <span>探测节点</span>
          <select value={site} onChange={(event) => setSite(event.target.value)}>
            <option value="">自动选择</option>
            {(sites.data ?? []).map((probe) => (
              <option key={probe.site} value={probe.site}>
                {probe.name}（{probe.running}/{probe.capacity} 进行中）
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={added.isLoading || (!!taskId && !finished)}>
          开始探测
        </button>
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        {added.isError && (
          <p className="field-error" role="alert">
            {(added.error as FaceAError).msg}
          </p>
        )}
      </form>
      {task && (
        <section className="card" aria-labelledby={`${id}-hops`}>
          <h2 id={`${id}-hops`}>
            {task.target_input} → {task.target}：{STATE_TEXT[task.state]}
            {task.error ? `（${task.error}）` : ''}
          </h2>
          {!finished && <progress className="progress" aria-label="探测进度" />}
          <table className="result-table" aria-live="polite">
            <thead>
              <tr>
                <th scope="col">跳数</th>
                <th scope="col">IP</th>
                <th scope="col">位置</th>
                <th scope="col">延迟</th>
              </tr>
            </thead>
            <tbody>
              {task.hops.map((hop) => (
                <tr key={hop.ttl} data-hop={hop.ttl}>
                  <td>{hop.ttl}</td>
                  <td>{hop.ip ?? '*'}</td>
                  <td>{hop.location?.area || '—'}</td>
                  <td>{rtt(hop)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {points.length > 0 && <WorldMap label={`路由经过的 ${points.length} 个位置`} points={points} connect height={320} />}
        </section>
      )}
    </section>
  );
}
