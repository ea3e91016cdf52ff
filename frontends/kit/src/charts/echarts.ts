// The one ECharts of both apps, tree-shaken to what their maps and charts draw, on the canvas
// renderer (the BFFs' CSP allows no inline style attributes, which the SVG renderer writes).
// Imported only by chart modules, which pages load lazily: a landing chunk carries none of it.
import { BarChart, LineChart, MapChart, ScatterChart, EffectScatterChart, LinesChart } from 'echarts/charts';
import {
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  DatasetComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart,
  LineChart,
  MapChart,
  ScatterChart,
  EffectScatterChart,
  LinesChart,
  GeoComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  DatasetComponent,
  CanvasRenderer,
]);

export { echarts };
export type EChartsOption = echarts.EChartsCoreOption;
