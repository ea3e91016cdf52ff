import { useMemo } from 'react';
import { Chart, type EChartsOption } from '@ipdata/web-kit/charts';
import { formatCount } from './format.js';
import type { Granularity, SeriesRow } from './usage-series.js';

const ACCENT = '#0b5cad';
const SECOND = '#b35c00';
const INK = '#4a5868';

/** Lookups as bars and requests as a line, per period (ECharts, loaded after the page's text). */
export function UsageChart({ rows, label }: { rows: readonly SeriesRow[]; label: string }) {
  const option = useMemo<EChartsOption>(
    () => ({
      animation: false,
      color: [ACCENT, SECOND],
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      legend: { top: 0, left: 0, textStyle: { color: INK } },
      tooltip: { trigger: 'axis', valueFormatter: (value: unknown) => formatCount(Number(value)) },
      xAxis: {
        type: 'category',
        data: rows.map((row) => row.label),
        axisLabel: { color: INK, hideOverlap: true },
        axisTick: { alignWithLabel: true },
      },
      yAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: { color: INK, formatter: (value: number) => formatCount(value) },
      },
      series: [
        { name: 'Lookups', type: 'bar', data: rows.map((row) => row.lookups), barMaxWidth: 24 },
        { name: 'Requests', type: 'line', data: rows.map((row) => row.requests), showSymbol: false },
      ],
    }),
    [rows],
  );
  return (
    <div className="usage-chart">
      <Chart option={option} label={label} height={320} />
    </div>
  );
}

/** The chart's numbers as a table (for screen readers, and for anyone who wants the exact figures). */
export function UsageTable({
  rows,
  caption,
  granularity,
}: {
  rows: readonly SeriesRow[];
  caption: string;
  granularity: Granularity;
}) {
  const total = rows.reduce((sum, row) => ({ lookups: sum.lookups + row.lookups, requests: sum.requests + row.requests }), {
    lookups: 0,
    requests: 0,
  });
  return (
    <details className="usage-table">
      <summary>Show the numbers as a table</summary>
      <div className="table-scroll">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{granularity === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}</th>
              <th scope="col" className="number">
                Lookups
              </th>
              <th scope="col" className="number">
                Requests
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.period} data-period={row.period}>
                <th scope="row">{row.label}</th>
                <td className="number">{formatCount(row.lookups)}</td>
                <td className="number">{formatCount(row.requests)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="number" data-total="lookups">
                {formatCount(total.lookups)}
              </td>
              <td className="number" data-total="requests">
                {formatCount(total.requests)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </details>
  );
}
