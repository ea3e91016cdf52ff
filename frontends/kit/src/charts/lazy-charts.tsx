import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';
import type { Chart as ChartType } from './chart.js';
import type { WorldMap as WorldMapType } from './world-map.js';
import './chart.css';

// ECharts and the map data (~260 kB gzipped) load after the page's own text has painted: pages
// import these wrappers (`@ipdata/web-kit/charts`), never the chart modules directly, so a chart
// never delays what a visitor reads first (Lighthouse's largest contentful paint).
const LazyWorldMap = lazy(() => import('./world-map.js').then((m) => ({ default: m.WorldMap })));
const LazyChart = lazy(() => import('./chart.js').then((m) => ({ default: m.Chart })));

/** A lazily loaded chart component, holding its place (same height) until it arrives. */
export function deferred<P extends object>(Component: ComponentType<P>, height: number) {
  return function Deferred(props: P & { height?: number }) {
    return (
      <Suspense fallback={<div className="chart chart-loading" style={{ height: props.height ?? height }} aria-hidden="true" />}>
        <Component {...props} />
      </Suspense>
    );
  };
}

export const WorldMap = deferred<ComponentProps<typeof WorldMapType>>(LazyWorldMap, 360);
export const Chart = deferred<ComponentProps<typeof ChartType>>(LazyChart, 360);

export type { MapPoint } from './world-map.js';
export type { EChartsOption } from './echarts.js';
