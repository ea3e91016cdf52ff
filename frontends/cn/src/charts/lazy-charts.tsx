import { deferred } from '@ipdata/web-kit/charts';
import { lazy, type ComponentProps } from 'react';
import type { ChinaMap as ChinaMapType } from './china-map.js';

// The generic charts (Chart, WorldMap) are the kit's lazy wrappers; the China map is face A's own,
// loaded the same way: after the page's text, with its place held.
export { Chart, WorldMap } from '@ipdata/web-kit/charts';
export type { MapPoint } from '@ipdata/web-kit/charts';

const LazyChinaMap = lazy(() => import('./china-map.js').then((m) => ({ default: m.ChinaMap })));

export const ChinaMap = deferred<ComponentProps<typeof ChinaMapType>>(LazyChinaMap, 460);
