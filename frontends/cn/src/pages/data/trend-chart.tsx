import { useMemo } from 'react';
import type { Schema } from '../../api/face-a.types.js';
import { Chart } from '../../charts/lazy-charts.js';

/** Lookups per day (stats' rollups) as a line, with the same numbers in a table for screen readers. */
export function LookupTrendChart({ trend, label }: { trend: Schema<'LookupTrend'>; label: string }) {
  const option = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      grid: { left: 48, right: 16, top: 24, bottom: 32 },
      xAxis: { type: 'category', data: trend.days.map((day) => day.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: '查询次数', type: 'line', smooth: true, areaStyle: { opacity: 0.15 }, data: trend.days.map((d) => d.lookups) },
      ],
    }),
    [trend],
  );
  return (
    <figure className="chart-figure">
      <Chart option={option} label={`${label}：${trend.from} 至 ${trend.to} 共 ${trend.total.lookups} 次查询`} height={260} />
      <figcaption className="muted">
        {trend.from} 至 {trend.to}，共 <strong data-total-lookups>{trend.total.lookups.toLocaleString('zh-CN')}</strong> 次查询
      </figcaption>
    </figure>
  );
}

/** Address counts: integers (IPv6 totals arrive as decimal text, beyond 2^53); /32 block counts to one decimal. */
export function formatCount(value: number | string): string {
  return typeof value === 'number'
    ? value.toLocaleString('zh-CN', { maximumFractionDigits: 1 })
    : BigInt(value).toLocaleString('zh-CN');
}

export function formatChange(value: number | string | null): string {
  if (value === null) return '—';
  const n = typeof value === 'number' ? BigInt(value) : BigInt(value);
  return `${n > 0n ? '+' : ''}${n.toLocaleString('zh-CN')}`;
}
