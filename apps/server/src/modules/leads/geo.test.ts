import { describe, expect, it } from 'vitest';
import {
  bd09ToWgs84,
  boxAround,
  cellsOfBox,
  gcj02ToBd09,
  gcj02ToWgs84,
  geoCellOf,
  gridClusters,
  haversineKm,
  isInPolygon,
  wgs84ToGcj02,
} from './geo';

const TIANANMEN = { lat: 39.908823, lng: 116.39747 };

describe('coordinates', () => {
  it('GCJ-02 shifts Beijing by a few hundred metres and the inverse brings it back within 1 m', () => {
    const gcj = wgs84ToGcj02(TIANANMEN);
    const shift = haversineKm(TIANANMEN, gcj);
    expect(shift).toBeGreaterThan(0.1);
    expect(shift).toBeLessThan(1);
    expect(haversineKm(gcj02ToWgs84(gcj), TIANANMEN)).toBeLessThan(0.001);
  });

  it('BD-09 → WGS-84 round trip within 1 m', () => {
    const bd = gcj02ToBd09(wgs84ToGcj02(TIANANMEN));
    expect(haversineKm(bd09ToWgs84(bd), TIANANMEN)).toBeLessThan(0.001);
  });

  it('outside China GCJ-02 is WGS-84', () => {
    const paris = { lat: 48.8566, lng: 2.3522 };
    expect(wgs84ToGcj02(paris)).toEqual(paris);
  });

  it('haversine: one degree of latitude is about 111.2 km', () => {
    expect(haversineKm({ lat: 30, lng: 120 }, { lat: 31, lng: 120 })).toBeCloseTo(111.19, 1);
  });

  it("a circle's box covers every point at the radius (the edge is decided by the exact distance)", () => {
    const c = { lat: 22.5431, lng: 114.0579 };
    const box = boxAround(c, 20);
    const cells = new Set(cellsOfBox(box));
    for (let deg = 0; deg < 360; deg += 5) {
      const rad = (deg * Math.PI) / 180;
      // a point just inside 20 km in every direction
      const p = {
        lat: c.lat + (19.99 / 111.195) * Math.cos(rad),
        lng: c.lng + (19.99 / (111.195 * Math.cos((c.lat * Math.PI) / 180))) * Math.sin(rad),
      };
      expect(haversineKm(c, p)).toBeLessThanOrEqual(20);
      expect(p.lat).toBeGreaterThanOrEqual(box.minLat);
      expect(p.lat).toBeLessThanOrEqual(box.maxLat);
      expect(cells.has(geoCellOf(p))).toBe(true);
    }
  });

  it('polygon: inside, outside', () => {
    const square = [
      { lat: 0, lng: 0 },
      { lat: 0, lng: 1 },
      { lat: 1, lng: 1 },
      { lat: 1, lng: 0 },
    ];
    expect(isInPolygon({ lat: 0.5, lng: 0.5 }, square)).toBe(true);
    expect(isInPolygon({ lat: 1.5, lng: 0.5 }, square)).toBe(false);
  });

  it('grid clusters count every point once', () => {
    const pts = Array.from({ length: 100 }, (_, i) => ({ lat: 30 + (i % 10) * 0.001, lng: 120 + Math.floor(i / 10) * 0.5 }));
    const clusters = gridClusters(pts, 0.1);
    expect(clusters.reduce((s, c) => s + c.count, 0)).toBe(100);
    expect(clusters).toHaveLength(10);
  });
});
