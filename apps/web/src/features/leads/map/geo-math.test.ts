import { describe, expect, it } from 'vitest';
import { circleRing, clusterPoints, distanceKm } from './geo-math';

describe('map geometry', () => {
  it('measures great-circle distances', () => {
    // 天安门 → 上海人民广场 is about 1067 km
    expect(distanceKm([116.3975, 39.9087], [121.4737, 31.2304])).toBeGreaterThan(1060);
    expect(distanceKm([116.3975, 39.9087], [121.4737, 31.2304])).toBeLessThan(1075);
    expect(distanceKm([113.26, 23.13], [113.26, 23.13])).toBe(0);
  });

  it('draws the radius ring at the radius, closed', () => {
    const center: [number, number] = [113.26, 23.13];
    const ring = circleRing(center, 20, 36);
    expect(ring).toHaveLength(37);
    expect(ring[0][0]).toBeCloseTo(ring[36][0], 9);
    expect(ring[0][1]).toBeCloseTo(ring[36][1], 9);
    for (const p of ring) expect(distanceKm(center, p)).toBeCloseTo(20, 6);
  });

  it('clusters points of one cell and keeps far ones apart', () => {
    const p = (id: string, lng: number, lat: number) => ({ id, lng, lat, name: id });
    const clusters = clusterPoints([p('a', 113.01, 23.01), p('b', 113.02, 23.03), p('c', 114.5, 23.01)], 0.1);
    expect(clusters).toHaveLength(2);
    const dense = clusters.find((c) => c.points.length === 2);
    expect(dense?.points.map((x) => x.id).sort()).toEqual(['a', 'b']);
    expect(dense?.lng).toBeCloseTo(113.015, 9);
    expect(clusters.find((c) => c.points.length === 1)?.points[0].id).toBe('c');
  });
});
