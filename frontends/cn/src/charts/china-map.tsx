import { useMemo } from 'react';
import { Chart } from '@ipdata/web-kit/charts/chart';
import { CHINA_MAP, registerChinaMap } from './geo-maps.js';

interface ChinaMapProps {
  /** Value per province by short name (广东, 内蒙古, 香港, ...). */
  values: Record<string, number>;
  label: string;
  seriesName: string;
}

/** China's provinces shaded by value. */
export function ChinaMap({ values, label, seriesName }: ChinaMapProps) {
  const option = useMemo(() => {
    const data = Object.entries(values).map(([name, value]) => ({ name, value }));
    const max = Math.max(1, ...data.map((item) => item.value));
    return {
      tooltip: { trigger: 'item' },
      visualMap: {
        min: 0,
        max,
        left: 'left',
        bottom: 10,
        text: ['高', '低'],
        calculable: true,
        inRange: { color: ['#e0ecff', '#1f6feb', '#0b2e6b'] },
      },
      series: [
        {
          name: seriesName,
          type: 'map',
          map: CHINA_MAP,
          roam: false,
          emphasis: { label: { show: true } },
          data,
        },
      ],
    };
  }, [values, seriesName]);
  return <Chart option={option} label={label} prepare={registerChinaMap} height={460} />;
}
