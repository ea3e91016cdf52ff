import type { FeatureCollection } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { cutAtAntimeridian } from './antimeridian.js';
import { echarts } from './echarts.js';

export const WORLD_MAP = 'world';

let world: Promise<void> | undefined;

/** Natural Earth's countries (world-atlas, 1:110m), registered once; loaded on first use. */
export function registerWorldMap(): Promise<void> {
  world ??= import('world-atlas/countries-110m.json').then((module) => {
    const topology = module.default as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
    const countries = feature(topology, topology.objects.countries) as FeatureCollection;
    // Antarctica (ISO 010) only adds a band across the bottom of a small map.
    countries.features = countries.features.filter((country) => country.id !== '010');
    echarts.registerMap(WORLD_MAP, cutAtAntimeridian(countries) as never);
  });
  return world;
}
