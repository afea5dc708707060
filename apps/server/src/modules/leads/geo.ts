/**
 * Coordinates for the map search: WGS-84 is stored; Chinese providers give GCJ-02 (国测局) or
 * BD-09 (百度), converted here. The inverse of GCJ-02 is found by iteration (error < 1e-6°,
 * about 0.1 m). Outside China GCJ-02 equals WGS-84.
 */

const A = 6378245.0;
const EE = 0.006693421622965943;
const X_PI = (Math.PI * 3000.0) / 180.0;
export const EARTH_RADIUS_KM = 6371.0088;

export type LatLng = { lat: number; lng: number };

/** The rough box the GCJ-02 offset applies in. */
export const isOutOfChina = ({ lat, lng }: LatLng) => lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;

const transformLat = (x: number, y: number) => {
  let r = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) / 3.0;
  return r;
};
const transformLng = (x: number, y: number) => {
  let r = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  r += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  r += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0;
  r += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) / 3.0;
  return r;
};

/** WGS-84 → GCJ-02. */
export const wgs84ToGcj02 = (p: LatLng): LatLng => {
  if (isOutOfChina(p)) return { ...p };
  let dLat = transformLat(p.lng - 105.0, p.lat - 35.0);
  let dLng = transformLng(p.lng - 105.0, p.lat - 35.0);
  const radLat = (p.lat / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  dLat = (dLat * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  dLng = (dLng * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return { lat: p.lat + dLat, lng: p.lng + dLng };
};

/** GCJ-02 → WGS-84 (iterated until the forward transform lands within 1e-7°). */
export const gcj02ToWgs84 = (p: LatLng): LatLng => {
  if (isOutOfChina(p)) return { ...p };
  let guess = { lat: p.lat, lng: p.lng };
  for (let i = 0; i < 30; i++) {
    const there = wgs84ToGcj02(guess);
    const dLat = there.lat - p.lat;
    const dLng = there.lng - p.lng;
    if (Math.abs(dLat) < 1e-7 && Math.abs(dLng) < 1e-7) break;
    guess = { lat: guess.lat - dLat, lng: guess.lng - dLng };
  }
  return guess;
};

/** BD-09 → GCJ-02. */
export const bd09ToGcj02 = (p: LatLng): LatLng => {
  const x = p.lng - 0.0065;
  const y = p.lat - 0.006;
  const z = Math.sqrt(x * x + y * y) - 0.00002 * Math.sin(y * X_PI);
  const theta = Math.atan2(y, x) - 0.000003 * Math.cos(x * X_PI);
  return { lat: z * Math.sin(theta), lng: z * Math.cos(theta) };
};
/** GCJ-02 → BD-09. */
export const gcj02ToBd09 = (p: LatLng): LatLng => {
  const z = Math.sqrt(p.lng * p.lng + p.lat * p.lat) + 0.00002 * Math.sin(p.lat * X_PI);
  const theta = Math.atan2(p.lat, p.lng) + 0.000003 * Math.cos(p.lng * X_PI);
  return { lat: z * Math.sin(theta) + 0.006, lng: z * Math.cos(theta) + 0.0065 };
};
/** BD-09 → WGS-84. */
export const bd09ToWgs84 = (p: LatLng): LatLng => gcj02ToWgs84(bd09ToGcj02(p));

/** Any of the three systems → WGS-84. */
export const toWgs84 = (p: LatLng, system: 'WGS84' | 'GCJ02' | 'BD09'): LatLng =>
  system === 'GCJ02' ? gcj02ToWgs84(p) : system === 'BD09' ? bd09ToWgs84(p) : { ...p };

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine). */
export const haversineKm = (a: LatLng, b: LatLng): number => {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
};

/** The 0.1° grid cell stored in lead_companies.geo_cell. */
export const CELL_DEG = 0.1;
export const geoCellOf = ({ lat, lng }: LatLng): number =>
  Math.floor((lat + 90) / CELL_DEG) * 3600 + Math.floor((lng + 180) / CELL_DEG);

export type Box = { minLat: number; maxLat: number; minLng: number; maxLng: number };

/** The box around a circle (a little generous, so the exact distance decides at the edge). */
export const boxAround = (c: LatLng, radiusKm: number): Box => {
  const dLat = (radiusKm / (Math.PI * EARTH_RADIUS_KM)) * 180 * 1.001;
  const cos = Math.max(Math.cos(rad(c.lat)), 0.01);
  const dLng = dLat / cos;
  return { minLat: c.lat - dLat, maxLat: c.lat + dLat, minLng: c.lng - dLng, maxLng: c.lng + dLng };
};

export const boxOfPolygon = (ring: LatLng[]): Box => ({
  minLat: Math.min(...ring.map((p) => p.lat)),
  maxLat: Math.max(...ring.map((p) => p.lat)),
  minLng: Math.min(...ring.map((p) => p.lng)),
  maxLng: Math.max(...ring.map((p) => p.lng)),
});

/** The grid cells a box covers (the map query's index lookup). */
export const cellsOfBox = (box: Box): number[] => {
  const cells: number[] = [];
  const lat0 = Math.floor((box.minLat + 90) / CELL_DEG);
  const lat1 = Math.floor((box.maxLat + 90) / CELL_DEG);
  const lng0 = Math.floor((box.minLng + 180) / CELL_DEG);
  const lng1 = Math.floor((box.maxLng + 180) / CELL_DEG);
  for (let i = lat0; i <= lat1; i++) for (let j = lng0; j <= lng1; j++) cells.push(i * 3600 + j);
  return cells;
};

/** Ray casting: is the point inside the ring (its edge counts as inside on one side only)? */
export const isInPolygon = (p: LatLng, ring: LatLng[]): boolean => {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i] as LatLng;
    const b = ring[j] as LatLng;
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng)
      inside = !inside;
  }
  return inside;
};

/** Grid clustering: points in the same cell of `cellDeg` become one cluster at their mean. */
export const gridClusters = (points: LatLng[], cellDeg: number) => {
  const cells = new Map<string, { lat: number; lng: number; count: number }>();
  for (const p of points) {
    const key = `${Math.floor(p.lat / cellDeg)}:${Math.floor(p.lng / cellDeg)}`;
    const c = cells.get(key) ?? { lat: 0, lng: 0, count: 0 };
    c.lat += p.lat;
    c.lng += p.lng;
    c.count++;
    cells.set(key, c);
  }
  return clustersOf([...cells.values()]);
};

/** Cells' coordinate sums and counts (from gridClusters or the database) → clusters at their mean. */
export const clustersOf = (cells: { lat: number; lng: number; count: number }[]) =>
  cells.map((c) => ({
    lat: Math.round((c.lat / c.count) * 1e6) / 1e6,
    lng: Math.round((c.lng / c.count) * 1e6) / 1e6,
    count: c.count,
  }));
