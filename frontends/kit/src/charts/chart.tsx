import { useEffect, useRef } from 'react';
import { echarts, type EChartsOption } from './echarts.js';
import './chart.css';

interface ChartProps {
  option: EChartsOption;
  /** What the chart shows, for screen readers (the numbers are also in a table beside it). */
  label: string;
  /** Registers a map the option uses before the first draw. */
  prepare?: () => Promise<void>;
  height?: number;
}

/** An ECharts canvas that follows its container's width, redrawn when `option` changes. */
export function Chart({ option, label, prepare, height = 360 }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    let cancelled = false;
    const target = element.current!;
    const resize = new ResizeObserver(() => chart.current?.resize());
    void (prepare?.() ?? Promise.resolve()).then(() => {
      if (cancelled) return;
      chart.current = echarts.init(target, undefined, { renderer: 'canvas' });
      chart.current.setOption(option);
      resize.observe(target);
    });
    return () => {
      cancelled = true;
      resize.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
    // Created once per mount; option changes are applied by the effect below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={element} className="chart" role="img" aria-label={label} style={{ height }} />;
}
