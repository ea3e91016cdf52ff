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

/**
 * An ECharts canvas that follows its container's size, redrawn when `option` changes. It is
 * created, and resized, only while its container has an area: ECharts 6.1 throws "Cannot read
 * properties of null (reading '0')" on every animation frame for a geo chart sized 0×0
 * (apache/echarts#21706, fixed after 6.1.0), and a container reports 0×0 when it is hidden or
 * detached (a page being left, before React's cleanup disposes the chart).
 */
export function Chart({ option, label, prepare, height = 360 }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  // The newest option, for a chart created after it arrived (the container had no area yet).
  const latest = useRef(option);

  useEffect(() => {
    let cancelled = false;
    let prepared = false;
    const target = element.current!;
    const draw = () => {
      if (cancelled || !prepared || target.clientWidth === 0 || target.clientHeight === 0) return;
      if (chart.current === null) {
        chart.current = echarts.init(target, undefined, { renderer: 'canvas' });
        chart.current.setOption(latest.current);
      } else chart.current.resize();
    };
    const resize = new ResizeObserver(draw);
    resize.observe(target);
    void (prepare?.() ?? Promise.resolve()).then(() => {
      prepared = true;
      draw();
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
    latest.current = option;
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={element} className="chart" role="img" aria-label={label} style={{ height }} />;
}
