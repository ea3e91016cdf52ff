import { echarts } from '@ipdata/web-kit/charts/echarts';

// The world map is the kit's (`@ipdata/web-kit/charts`); China's provinces are face A's own.
export const CHINA_MAP = 'china';

let china: Promise<void> | undefined;

/** China's 34 province-level divisions (china-geojson; `name` is the short name, e.g. 广东). */
export function registerChinaMap(): Promise<void> {
  china ??= import('china-geojson/src/geojson/china.json').then((module) => {
    echarts.registerMap(CHINA_MAP, module.default as never);
  });
  return china;
}
