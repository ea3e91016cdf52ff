import { useMemo } from 'react';
import { Chart } from './chart.js';
import { registerWorldMap, WORLD_MAP } from './world-geo.js';

export interface MapPoint {
  name: string;
  latitude: number;
  longitude: number;
}

interface WorldMapProps {
  points: MapPoint[];
  /** Joins the points in order (a traceroute's path). */
  connect?: boolean;
  label: string;
  height?: number;
}

/** Points (and optionally the path through them) on a world map. */
export function WorldMap({ points, connect = false, label, height }: WorldMapProps) {
  const option = useMemo(() => {
    const coords = points.map((point) => [point.longitude, point.latitude]);
    return {
      geo: {
        map: WORLD_MAP,
        roam: true,
        itemStyle: { areaColor: '#e8edf5', borderColor: '#a9b4c6' },
        emphasis: { disabled: true },
      },
      tooltip: { trigger: 'item' },
      series: [
        {
          type: 'effectScatter',
          coordinateSystem: 'geo',
          symbolSize: 10,
          itemStyle: { color: '#d9363e' },
          data: points.map((point, i) => ({ name: point.name, value: coords[i] })),
        },
        ...(connect && coords.length > 1
          ? [
              {
                type: 'lines',
                coordinateSystem: 'geo',
                polyline: true,
                lineStyle: { color: '#1f6feb', width: 2, opacity: 0.8 },
                data: [{ coords }],
              },
            ]
          : []),
      ],
    };
  }, [points, connect]);
  return <Chart option={option} label={label} prepare={registerWorldMap} height={height} />;
}
