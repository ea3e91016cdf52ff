import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';

// world-atlas keeps its polygons on the sphere: a country across the 180° meridian (Russia's
// Chukotka, Fiji) has rings that jump from +180 to -180. d3-geo understands that; ECharts draws
// the plane, so such a ring becomes a band across the whole map. Here each such ring is made
// continuous and cut at ±180 into pieces that each stay on one side.

type Ring = Position[];

const crosses = (ring: Ring) => ring.some((point, i) => i > 0 && Math.abs(point[0]! - ring[i - 1]![0]!) > 180);

/** The ring with longitudes made continuous (may run past ±180). */
function unwrap(ring: Ring): Ring {
  let offset = 0;
  return ring.map((point, i) => {
    if (i > 0) {
      const step = point[0]! - ring[i - 1]![0]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    return [point[0]! + offset, point[1]!];
  });
}

/** Sutherland–Hodgman against one vertical line: keeps the side where `inside(lon)` holds. */
function clip(ring: Ring, edge: number, inside: (lon: number) => boolean): Ring {
  const out: Ring = [];
  for (let i = 0; i < ring.length; i += 1) {
    const current = ring[i]!;
    const previous = ring[(i + ring.length - 1) % ring.length]!;
    const cross = (): Position => {
      const t = (edge - previous[0]!) / (current[0]! - previous[0]!);
      return [edge, previous[1]! + t * (current[1]! - previous[1]!)];
    };
    if (inside(current[0]!)) {
      if (!inside(previous[0]!)) out.push(cross());
      out.push(current);
    } else if (inside(previous[0]!)) out.push(cross());
  }
  return out;
}

/** An unwrapped ring's pieces within [-180, 180], each closed. */
function pieces(ring: Ring): Ring[] {
  const open = unwrap(ring).slice(0, -1);
  return [-360, 0, 360].flatMap((shift) => {
    const moved = open.map((point) => [point[0]! + shift, point[1]!]);
    const piece = clip(
      clip(moved, 180, (lon) => lon <= 180),
      -180,
      (lon) => lon >= -180,
    );
    return piece.length >= 3 ? [[...piece, piece[0]!]] : [];
  });
}

/** A polygon (outer ring first) as polygons that do not cross the antimeridian; holes of a cut polygon are dropped. */
function splitPolygon(rings: Ring[]): Ring[][] {
  const [outer, ...holes] = rings;
  if (!outer || !crosses(outer)) return [[...(outer ? [outer] : []), ...holes]];
  return pieces(outer).map((piece) => [piece]);
}

function splitGeometry(geometry: Geometry | null): Geometry | null {
  if (geometry?.type === 'Polygon') {
    const split = splitPolygon(geometry.coordinates);
    return split.length === 1 ? { type: 'Polygon', coordinates: split[0]! } : { type: 'MultiPolygon', coordinates: split };
  }
  if (geometry?.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: geometry.coordinates.flatMap(splitPolygon) };
  return geometry;
}

/** The collection with every polygon that crosses the antimeridian cut there. */
export function cutAtAntimeridian(collection: FeatureCollection): FeatureCollection {
  return {
    ...collection,
    features: collection.features.map((item): Feature => ({ ...item, geometry: splitGeometry(item.geometry) as Geometry })),
  };
}
