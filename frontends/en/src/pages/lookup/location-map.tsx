import { useMemo, useSyncExternalStore } from 'react';
import { WorldMap } from '@ipdata/web-kit/charts';

// A world map is twice as wide as it is high: on a phone's width a tall box would be mostly empty.
const NARROW = '(max-width: 760px)';

// matchMedia may be missing (jsdom in the unit tests): the wide map then.
const narrowQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW) : undefined);

function subscribe(onChange: () => void): () => void {
  const query = narrowQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => narrowQuery()?.matches ?? false,
    () => false,
  );
}

/** The answer's location as a pin on the world map (the map loads after the card has painted). */
export function LocationMap({ pin }: { pin: { name: string; latitude: number; longitude: number } }) {
  const { name, latitude, longitude } = pin;
  // The same list while the pin is the same: the map redraws only for a new answer.
  const points = useMemo(() => [{ name, latitude, longitude }], [name, latitude, longitude]);
  const narrow = useNarrow();
  return (
    <div className="location-map">
      <WorldMap
        key={narrow ? 'narrow' : 'wide'}
        points={points}
        label={`Map: ${name} at latitude ${latitude}, longitude ${longitude}`}
        height={narrow ? 210 : 300}
      />
      <p className="map-note">The pin marks the approximate centre of the area the address is registered in.</p>
    </div>
  );
}
