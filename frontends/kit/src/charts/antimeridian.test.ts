import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { cutAtAntimeridian } from './antimeridian.js';

const collection = (coordinates: number[][][]): FeatureCollection => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates } }],
});

describe('cutAtAntimeridian', () => {
  it('leaves a polygon that stays on one side alone', () => {
    const square = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 20],
      [10, 10],
    ];
    expect((cutAtAntimeridian(collection([square])).features[0]!.geometry as Polygon).coordinates).toEqual([square]);
  });

  it('cuts a polygon across 180° into one piece on each side, none spanning the map', () => {
    // From 170°E over the meridian to 170°W, as world-atlas stores it (+180 jumps to -180).
    const across = [
      [170, 60],
      [-170, 60],
      [-170, 70],
      [170, 70],
      [170, 60],
    ];
    const geometry = cutAtAntimeridian(collection([across])).features[0]!.geometry as MultiPolygon;
    expect(geometry.type).toBe('MultiPolygon');
    expect(geometry.coordinates).toHaveLength(2);
    const spans = geometry.coordinates.map(([ring]) => {
      const lons = ring!.map((point) => point[0]!);
      return [Math.min(...lons), Math.max(...lons)];
    });
    expect(spans).toEqual(
      expect.arrayContaining([
        [170, 180],
        [-180, -170],
      ]),
    );
    for (const [ring] of geometry.coordinates) expect(ring![0]).toEqual(ring![ring!.length - 1]);
  });
});
