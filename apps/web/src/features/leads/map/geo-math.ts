/** Small geometry of the map page: distances and the radius ring in WGS-84 degrees. */
export type LngLat = [number, number];

const EARTH_RADIUS_KM = 6371.0088;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Great-circle distance in km (haversine). */
export const distanceKm = ([lng1, lat1]: LngLat, [lng2, lat2]: LngLat) => {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
};

/** The point `km` away from `from` in the direction `bearing` (degrees from north). */
const destination = ([lng, lat]: LngLat, km: number, bearing: number): LngLat => {
  const d = km / EARTH_RADIUS_KM;
  const b = rad(bearing);
  const lat1 = rad(lat);
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = rad(lng) + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return [deg(lng2), deg(lat2)];
};

/** A closed ring of `steps` points at `km` around `center`, to draw the searched circle. */
export const circleRing = (center: LngLat, km: number, steps = 72): LngLat[] => {
  const ring: LngLat[] = [];
  for (let i = 0; i <= steps; i++) ring.push(destination(center, km, (360 * i) / steps));
  return ring;
};

export type MapPoint = { id: string; lng: number; lat: number; name: string };
export type Cluster<P extends MapPoint> = { lng: number; lat: number; points: P[] };

/**
 * Groups points that fall in the same cell of `cellDeg` degrees: one marker with a count where
 * companies are dense, single markers where they are not. The marker sits at the group's mean.
 */
export const clusterPoints = <P extends MapPoint>(points: P[], cellDeg: number): Cluster<P>[] => {
  const cells = new Map<string, P[]>();
  for (const p of points) {
    const key = `${Math.floor(p.lng / cellDeg)}:${Math.floor(p.lat / cellDeg)}`;
    const cell = cells.get(key);
    if (cell) cell.push(p);
    else cells.set(key, [p]);
  }
  return [...cells.values()].map((group) => ({
    lng: group.reduce((s, p) => s + p.lng, 0) / group.length,
    lat: group.reduce((s, p) => s + p.lat, 0) / group.length,
    points: group,
  }));
};

/** The cell size for a visible span: about 40 cells across what is shown. */
export const cellForSpan = (spanDeg: number) => Math.max(spanDeg / 40, 0.0005);
