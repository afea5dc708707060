import { AimOutlined, ClearOutlined, FilterOutlined, GatewayOutlined } from '@ant-design/icons';
import { LEAD_LIMITS, type LeadFilters } from '@crm/contracts';
import { REGIONS } from '@crm/regions';
import { Alert, App, Button, Card, Cascader, Col, Empty, Form, InputNumber, List, Row, Segmented, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { type MapQuery, useMapSearch } from '../api';
import { CompanyCardDrawer } from '../components/CompanyCardDrawer';
import { CompanyStatusTag } from '../components/CompanyStatusTag';
import { LeadFilterForm } from '../components/LeadFilterForm';
import { type LeadFilterValues, rangeProblem, toLeadFilters } from '../components/leadFilters';
import { ChinaMap, type MapCluster, type MapMarker } from '../map/ChinaMap';
import { CHINA_CODE, hasOutline } from '../map/geo-maps';
import { clusterPoints, type LngLat } from '../map/geo-math';

type Mode = 'circle' | 'area';
const MAP_HEIGHT = 520;
/** provinces and their cities: where to look (a city centres the map on it) */
const PLACES = REGIONS.map((p) => ({
  value: p.value,
  label: p.label,
  children: p.children.map((c) => ({ value: c.value, label: c.label })),
}));

/** /jingxiansuo/map 地图搜索: companies within a radius of a clicked point, or inside a drawn area. */
export const MapSearchPage = () => {
  const { message } = App.useApp();
  const [filterForm] = Form.useForm<LeadFilterValues>();
  const [isFilterOpen, setFilterOpen] = useState(false);
  const [filters, setFilters] = useState<LeadFilters>({});
  const [outline, setOutline] = useState(CHINA_CODE);
  const [centers, setCenters] = useState<Map<number, LngLat>>(new Map());
  const [place, setPlace] = useState<number[]>([]);
  const [focus, setFocus] = useState<{ center: LngLat; spanDeg: number } | null>(null);
  const [mode, setMode] = useState<Mode>('circle');
  const [radiusKm, setRadiusKm] = useState<number | null>(5);
  const [center, setCenter] = useState<LngLat | null>(null);
  const [corners, setCorners] = useState<LngLat[]>([]);
  const [isClosed, setClosed] = useState(false);
  const [query, setQuery] = useState<MapQuery | null>(null);
  const [inCluster, setInCluster] = useState<number[] | null>(null);
  const [openId, setOpenId] = useState<number | null>(null);
  const result = useMapSearch(query);

  const searchCircle = (at: LngLat, km: number | null, withFilters = filters) => {
    if (!km || km <= 0) return void message.warning('请输入搜索半径');
    if (km > LEAD_LIMITS.mapMaxRadiusKm) return void message.warning(`半径最大${LEAD_LIMITS.mapMaxRadiusKm}公里`);
    setInCluster(null);
    setQuery({ ...withFilters, lng: round(at[0]), lat: round(at[1]), radiusKm: km });
  };
  const searchArea = (area: LngLat[], withFilters = filters) => {
    setInCluster(null);
    setQuery({ ...withFilters, polygon: area.map(([lng, lat]) => [round(lng), round(lat)]) });
  };

  const onPick = (point: LngLat) => {
    if (mode === 'circle') {
      setCenter(point);
      if (radiusKm) setFocus({ center: point, spanDeg: spanFor(radiusKm) });
      searchCircle(point, radiusKm);
      return;
    }
    if (isClosed) {
      setCorners([point]);
      setClosed(false);
      return;
    }
    if (corners.length >= LEAD_LIMITS.polygonMaxPoints)
      return void message.warning(`区域最多${LEAD_LIMITS.polygonMaxPoints}个顶点`);
    setCorners([...corners, point]);
  };

  const finishArea = () => {
    if (corners.length < 3) return void message.warning('请在地图上至少点选3个点围成区域');
    setClosed(true);
    searchArea(corners);
  };

  const clear = () => {
    setCenter(null);
    setCorners([]);
    setClosed(false);
    setQuery(null);
    setInCluster(null);
  };

  const choosePlace = (path: number[] | undefined) => {
    const next = path ?? [];
    setPlace(next);
    const province = next[0];
    const nextOutline = province && hasOutline(province) ? province : CHINA_CODE;
    setOutline(nextOutline);
    if (next.length < 2) setFocus(null);
    // a city: centre on it (its centre comes with the province's outline) and search around it
    if (next.length === 2 && nextOutline === outline) goToCity(next[1], centers);
    else if (next.length === 2) setPendingCity(next[1]);
  };
  const [pendingCity, setPendingCity] = useState<number | null>(null);
  const goToCity = (city: number, known: Map<number, LngLat>) => {
    // a municipality's outline has its districts, not the city: take their middle
    const at = known.get(city) ?? middleOf([...known.values()]);
    if (!at) return;
    setFocus({ center: at, spanDeg: spanFor(radiusKm) });
    if (mode === 'circle') {
      setCenter(at);
      searchCircle(at, radiusKm);
    }
  };
  const onCenters = (loaded: Map<number, LngLat>) => {
    setCenters(loaded);
    if (pendingCity !== null) {
      setPendingCity(null);
      goToCity(pendingCity, loaded);
    }
  };

  const applyFilters = () => {
    const values = filterForm.getFieldsValue();
    const problem = rangeProblem(values);
    if (problem) return void message.warning(problem);
    const next = toLeadFilters(values);
    setFilters(next);
    if (query?.polygon && isClosed) searchArea(corners, next);
    else if (center) searchCircle(center, radiusKm, next);
  };

  const data = result.data;
  // the server groups more than 300 points; below that, dots closer than the cell join here
  const { markers, clusters } = useMemo(() => {
    if (!data) return { markers: [] as MapMarker[], clusters: [] as MapCluster[] };
    if (data.isClustered)
      return { markers: [], clusters: data.clusters.map((k) => ({ lng: k.lng, lat: k.lat, count: k.count, ids: [] })) };
    const km = query?.radiusKm ?? 10;
    const cell = Math.max(km / 25 / 111, 0.0005);
    const groups = clusterPoints(
      data.points.map((p) => ({ ...p, id: String(p.id) })),
      cell,
    );
    return {
      markers: groups.filter((g) => g.points.length === 1).map((g) => ({ ...g.points[0], id: Number(g.points[0].id) })),
      clusters: groups
        .filter((g) => g.points.length > 1)
        .map((g) => ({ lng: g.lng, lat: g.lat, count: g.points.length, ids: g.points.map((p) => Number(p.id)) })),
    };
  }, [data, query]);

  const onCluster = (k: MapCluster) => {
    if (k.ids.length > 0) return setInCluster(k.ids);
    // a cluster of the server: look closer around it
    const km = Math.max(1, Math.round((query?.radiusKm ?? 10) / 4));
    setMode('circle');
    setRadiusKm(km);
    setCenter([k.lng, k.lat]);
    setFocus({ center: [k.lng, k.lat], spanDeg: spanFor(km) });
    searchCircle([k.lng, k.lat], km);
  };

  const listed = useMemo(() => {
    const points = data?.points ?? [];
    const shown = inCluster ? points.filter((p) => inCluster.includes(p.id)) : points;
    return [...shown].sort((a, b) => a.distanceKm - b.distanceKm);
  }, [data, inCluster]);

  const hint =
    mode === 'circle'
      ? '在地图上点击一个位置，搜索其周边半径内的企业；也可先选择城市'
      : isClosed
        ? '区域已完成，再次点击地图可重新画区域'
        : `在地图上依次点击区域的顶点（已点 ${corners.length} 个），然后点「完成区域」`;

  return (
    <Card title="地图搜索" styles={{ body: { paddingBottom: 12 } }}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Cascader
          options={PLACES}
          value={place}
          onChange={(v) => choosePlace(v as number[] | undefined)}
          changeOnSelect
          showSearch
          allowClear
          placeholder="选择省份 / 城市"
          style={{ width: 220 }}
          aria-label="省份城市"
        />
        <Segmented
          value={mode}
          onChange={(v) => {
            setMode(v as Mode);
            clear();
          }}
          options={[
            { value: 'circle', label: '点选 + 半径', icon: <AimOutlined /> },
            { value: 'area', label: '画区域', icon: <GatewayOutlined /> },
          ]}
        />
        {mode === 'circle' ? (
          <InputNumber
            addonBefore="半径"
            suffix="公里"
            min={0.1}
            max={LEAD_LIMITS.mapMaxRadiusKm}
            step={1}
            value={radiusKm}
            onChange={(v) => setRadiusKm(v)}
            onPressEnter={() => center && searchCircle(center, radiusKm)}
            style={{ width: 180 }}
            aria-label="半径"
          />
        ) : (
          <Button type="primary" disabled={isClosed || corners.length < 3} onClick={finishArea}>
            完成区域
          </Button>
        )}
        {mode === 'circle' && (
          <Button type="primary" disabled={!center} onClick={() => center && searchCircle(center, radiusKm)}>
            搜索
          </Button>
        )}
        <Button icon={<FilterOutlined />} onClick={() => setFilterOpen(!isFilterOpen)}>
          {isFilterOpen ? '收起筛选' : `更多筛选${Object.keys(filters).length > 0 ? `（${Object.keys(filters).length}）` : ''}`}
        </Button>
        <Button icon={<ClearOutlined />} onClick={clear}>
          清除
        </Button>
      </Space>
      {isFilterOpen && (
        <div style={{ background: '#fafafa', padding: '12px 12px 0', marginBottom: 12, borderRadius: 6 }}>
          <LeadFilterForm form={filterForm} isNameHidden />
          <Space style={{ marginBottom: 12 }}>
            <Button type="primary" onClick={applyFilters}>
              应用筛选
            </Button>
            <Button
              onClick={() => {
                filterForm.resetFields();
                setFilters({});
              }}
            >
              重置
            </Button>
          </Space>
        </div>
      )}
      <Row gutter={16}>
        <Col flex="auto" style={{ minWidth: 0 }}>
          <Typography.Text type="secondary">{hint}</Typography.Text>
          <div style={{ border: '1px solid #f0f0f0', borderRadius: 6, marginTop: 8, overflow: 'hidden' }}>
            <ChinaMap
              outline={outline}
              focus={focus}
              center={mode === 'circle' ? center : null}
              radiusKm={mode === 'circle' && query?.radiusKm ? query.radiusKm : null}
              polygon={mode === 'area' ? corners : []}
              isPolygonClosed={isClosed}
              markers={markers}
              clusters={clusters}
              onPick={onPick}
              onMarker={setOpenId}
              onCluster={onCluster}
              onCenters={onCenters}
              height={MAP_HEIGHT}
            />
          </div>
        </Col>
        <Col flex="320px" style={{ minWidth: 0 }}>
          <div style={{ marginBottom: 8, minHeight: 22 }}>
            {data && (
              <Typography.Text>
                找到 <b data-testid="map-count">{data.count}</b> 家企业
                {inCluster && (
                  <Typography.Link style={{ marginInlineStart: 8 }} onClick={() => setInCluster(null)}>
                    显示全部
                  </Typography.Link>
                )}
              </Typography.Text>
            )}
          </div>
          {data?.isClustered && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 8 }}
              title="结果较多，已按区域聚合显示"
              description="点击地图上的聚合点放大查看，或缩小半径、增加筛选条件"
            />
          )}
          {!query ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="在地图上选择位置开始搜索" />
          ) : (
            <List
              size="small"
              bordered
              loading={result.isFetching}
              style={{ height: data?.isClustered ? MAP_HEIGHT - 110 : MAP_HEIGHT + 4, overflow: 'auto' }}
              dataSource={listed}
              locale={{ emptyText: data?.isClustered ? '请放大查看' : '该范围内没有符合条件的企业' }}
              renderItem={(p) => (
                <List.Item style={{ cursor: 'pointer' }} onClick={() => setOpenId(p.id)} data-testid="map-company">
                  <div style={{ minWidth: 0, flex: 1 }}>
                    <Typography.Text ellipsis={{ tooltip: p.name }} style={{ display: 'block' }}>
                      {p.name}
                    </Typography.Text>
                    <Space size={8}>
                      <CompanyStatusTag status={p.status} />
                      {query.radiusKm !== undefined && (
                        <Typography.Text type="secondary">{p.distanceKm.toFixed(1)} 公里</Typography.Text>
                      )}
                    </Space>
                  </div>
                </List.Item>
              )}
            />
          )}
        </Col>
      </Row>
      <CompanyCardDrawer id={openId} onClose={() => setOpenId(null)} />
    </Card>
  );
};

/** Degrees across that show a circle of `km` with room around it. */
const spanFor = (km: number | null) => Math.max(((km ?? 5) * 5) / 111, 0.05);
const middleOf = (points: LngLat[]): LngLat | undefined =>
  points.length === 0
    ? undefined
    : [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];

/** Six decimals (about 0.1 m) are enough and keep the query key stable. */
const round = (v: number) => Math.round(v * 1e6) / 1e6;
