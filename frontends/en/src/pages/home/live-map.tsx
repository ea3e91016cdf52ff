import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { WorldMap } from '@ipdata/web-kit/charts';
import { liveLookupsApi } from './live-lookups.api.js';

/**
 * "Where our data covers", shown with real answers: public resolvers on six continents looked up
 * live, pinned on the world map (ECharts loads after the page's text), and the same answers as a
 * table for anyone who cannot see the map.
 */
/**
 * True once the element is within a screen of the viewport: the lookups and ECharts (~220 kB
 * gzipped, a second of main-thread work on a phone) wait until a visitor scrolls towards the map.
 */
function useNearViewport<E extends Element>() {
  const element = useRef<E>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const target = element.current;
    if (near || !target) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '100% 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [near]);
  return { element, near };
}

export function LiveMap() {
  const { element, near } = useNearViewport<HTMLElement>();
  const { data, isLoading, isError } = liveLookupsApi.useLiveLookupsQuery(undefined, { skip: !near });
  // The world is twice as wide as high: a phone's narrow map needs less height.
  const [height] = useState(() => (window.matchMedia?.('(max-width: 760px)').matches ? 220 : 380));
  const points = useMemo(
    () =>
      (data ?? []).map((lookup) => ({
        name: `${lookup.ip} · ${lookup.place}`,
        latitude: lookup.latitude,
        longitude: lookup.longitude,
      })),
    [data],
  );
  return (
    <section ref={element} className="home-section live-map" aria-labelledby="live-map-title">
      <h2 id="live-map-title">Live lookups around the world</h2>
      <p className="section-lead">
        Public DNS resolvers on six continents, looked up just now with the same data our API answers. Try any address in the{' '}
        <Link to="/lookup">IP lookup tool</Link>.
      </p>
      {isError && <p className="note">The live lookups are not available right now.</p>}
      {/* The place the map and its table take, kept until they come (nothing below moves). */}
      {(!near || isLoading) && <div className="live-map-placeholder" aria-hidden="true" />}
      {data && (
        <div className="live-map-layout">
          <WorldMap
            points={points}
            label={`World map with ${points.length} looked-up resolvers, listed in the table`}
            height={height}
          />
          <table className="live-table">
            <caption>Looked up just now</caption>
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">Location</th>
                <th scope="col">Network</th>
              </tr>
            </thead>
            <tbody>
              {data.map((lookup) => (
                <tr key={lookup.ip}>
                  <td>
                    <Link to={`/lookup?q=${encodeURIComponent(lookup.ip)}`}>{lookup.ip}</Link>
                  </td>
                  <td>{lookup.place}</td>
                  <td>{lookup.network}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
