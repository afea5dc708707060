/**
 * FICTIONAL companies, generated deterministically from a number (and, for the provider test
 * double, from the name searched). They feed the provider TEST DOUBLE and the development demo
 * registry; none of them exists. Credit codes are well-formed (GB 32100 check character right)
 * and unique per serial; coordinates are WGS-84 near real city centres.
 */
import { findRegion, type Region } from '@crm/regions';
import { CREDIT_CODE_CHARS, creditCodeCheckChar } from './credit-code';

/** A fictional company in the registry's own terms. */
export type FictionalCompany = {
  creditCode: string;
  name: string;
  legalRep: string;
  status: 1 | 2 | 3;
  provinceCode: number;
  cityCode: number;
  districtCode: number | null;
  industryCode: string;
  capitalWan: number;
  foundedOn: string;
  address: string;
  scope: string;
  phones: string[];
  lat: number;
  lng: number;
};

/** mulberry32: a small seeded PRNG (same seed, same companies). */
export const seededRandom = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const hashText = (text: string) => {
  let h = 2166136261;
  for (const ch of text) {
    h ^= ch.codePointAt(0) as number;
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
};

// city code, short name, lat, lng, weight, telephone area code
const CITIES: [number, string, number, number, number, string][] = [
  [110100, '北京', 39.9042, 116.4074, 9, '010'],
  [310100, '上海', 31.2304, 121.4737, 9, '021'],
  [440100, '广州', 23.1291, 113.2644, 8, '020'],
  [440300, '深圳', 22.5431, 114.0579, 9, '0755'],
  [330100, '杭州', 30.2741, 120.1551, 7, '0571'],
  [320100, '南京', 32.0603, 118.7969, 5, '025'],
  [320500, '苏州', 31.299, 120.5853, 6, '0512'],
  [510100, '成都', 30.5728, 104.0668, 6, '028'],
  [420100, '武汉', 30.5928, 114.3055, 5, '027'],
  [500100, '重庆', 29.563, 106.5516, 5, '023'],
  [610100, '西安', 34.3416, 108.9398, 4, '029'],
  [120100, '天津', 39.0842, 117.201, 4, '022'],
  [430100, '长沙', 28.2282, 112.9388, 4, '0731'],
  [410100, '郑州', 34.7466, 113.6254, 4, '0371'],
  [370100, '济南', 36.6512, 117.1201, 3, '0531'],
  [370200, '青岛', 36.0671, 120.3826, 3, '0532'],
  [350100, '福州', 26.0745, 119.2965, 3, '0591'],
  [350200, '厦门', 24.4798, 118.0894, 3, '0592'],
  [340100, '合肥', 31.8206, 117.2272, 3, '0551'],
  [210100, '沈阳', 41.8057, 123.4315, 2, '024'],
  [220100, '长春', 43.8171, 125.3235, 2, '0431'],
  [230100, '哈尔滨', 45.8038, 126.535, 2, '0451'],
  [130100, '石家庄', 38.0428, 114.5149, 2, '0311'],
  [140100, '太原', 37.8706, 112.5489, 2, '0351'],
  [360100, '南昌', 28.6829, 115.8582, 2, '0791'],
  [450100, '南宁', 22.817, 108.3665, 2, '0771'],
  [530100, '昆明', 25.0389, 102.7183, 2, '0871'],
  [520100, '贵阳', 26.647, 106.6302, 2, '0851'],
  [150100, '呼和浩特', 40.8424, 111.7492, 1, '0471'],
  [460100, '海口', 20.044, 110.1999, 1, '0898'],
  [620100, '兰州', 36.0611, 103.8343, 1, '0931'],
  [640100, '银川', 38.4872, 106.2309, 1, '0951'],
  [630100, '西宁', 36.6171, 101.7782, 1, '0971'],
  [650100, '乌鲁木齐', 43.8256, 87.6168, 1, '0991'],
  [540100, '拉萨', 29.652, 91.1721, 1, '0891'],
];
const CITY_WEIGHT_TOTAL = CITIES.reduce((s, c) => s + c[4], 0);

const CORES = [
  '华信',
  '腾达',
  '恒通',
  '鑫源',
  '博远',
  '瑞丰',
  '中科',
  '天成',
  '金桥',
  '宏图',
  '海纳',
  '星辰',
  '云帆',
  '智创',
  '合众',
  '永盛',
  '新锐',
  '联创',
  '汇通',
  '东方',
  '嘉禾',
  '启明',
  '远航',
  '润泽',
  '正阳',
  '长青',
  '安泰',
  '德信',
  '卓越',
  '蓝海',
  '凯达',
  '世纪',
  '万象',
  '锦程',
  '同方',
  '信达',
  '百川',
  '华瑞',
  '佳和',
  '明德',
  '宇航',
  '思源',
  '康宁',
  '泰和',
  '鼎盛',
  '隆基',
  '晨光',
  '绿源',
];

// 大类 code, words for the name, business scope
const TRADES: [string, string[], string][] = [
  ['65', ['软件', '信息技术', '网络科技'], '软件开发；信息技术咨询服务；信息系统集成服务；数据处理和存储支持服务'],
  ['64', ['互联网科技', '数字科技'], '互联网信息服务；网络技术服务；互联网数据服务；广告设计、代理'],
  ['51', ['贸易', '商贸', '进出口'], '货物进出口；技术进出口；日用百货销售；五金产品批发；电子产品销售'],
  ['52', ['商贸', '百货'], '日用百货销售；食品销售；服装服饰零售；家用电器销售'],
  ['72', ['企业管理咨询', '广告', '商务服务'], '企业管理咨询；市场营销策划；会议及展览服务；广告制作'],
  ['47', ['建设', '建筑工程'], '房屋建筑工程施工；建设工程施工；建筑劳务分包'],
  ['50', ['装饰工程', '建筑装饰'], '住宅室内装饰装修；建筑装饰材料销售；园林绿化工程施工'],
  ['34', ['机械', '设备制造'], '通用设备制造；机械零件、零部件加工；机械设备销售'],
  ['39', ['电子', '通信设备'], '电子元器件制造；通信设备制造；计算机软硬件及外围设备制造'],
  ['54', ['物流', '运输'], '道路货物运输；国内货物运输代理；普通货物仓储服务'],
  ['62', ['餐饮管理', '餐饮'], '餐饮服务；餐饮管理；食品销售'],
  ['70', ['房地产开发', '置业'], '房地产开发经营；物业管理；住房租赁'],
  ['75', ['科技', '新材料科技'], '技术服务、技术开发、技术咨询、技术交流、技术转让、技术推广；新材料技术研发'],
  ['83', ['教育科技', '培训'], '教育咨询服务；业务培训；文化艺术交流活动'],
  ['84', ['医疗科技', '健康管理'], '健康咨询服务；医疗器械销售；养生保健服务'],
  ['29', ['塑胶制品', '包装材料'], '塑料制品制造；橡胶制品销售；包装材料及制品销售'],
  ['14', ['食品', '农业科技'], '食品生产；农产品的生产、销售、加工；初级农产品收购'],
  ['44', ['新能源', '电力工程'], '太阳能发电技术服务；输电、供电、受电电力设施的安装、维修和试验'],
];
const FORMS = ['有限公司', '有限公司', '有限公司', '有限公司', '有限责任公司', '股份有限公司'];
const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华建国志红晓东海波宇浩然婷雪梅鹏飞俊峰';
const CAPITALS = [10, 50, 100, 100, 200, 300, 500, 500, 1000, 1000, 2000, 5000, 10000, 50000];
const STREETS = ['人民路', '解放路', '中山路', '建设路', '科技园路', '滨江大道', '创业路', '长江路', '世纪大道', '新华路'];

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

const cityOf = (rand: () => number) => {
  let at = rand() * CITY_WEIGHT_TOTAL;
  for (const c of CITIES) {
    at -= c[4];
    if (at < 0) return c;
  }
  return CITIES[0] as (typeof CITIES)[number];
};

/** Nine organization-code characters from a serial (unique per serial below 31^9). */
const orgCodeOf = (serial: number) => {
  let n = serial;
  let out = '';
  for (let i = 0; i < 9; i++) {
    out = CREDIT_CODE_CHARS[n % 31] + out;
    n = Math.floor(n / 31);
  }
  return out;
};

/** A well-formed 统一社会信用代码 for a district and a serial: 91 (工商, 企业) + region + org code + check. */
export const fictionalCreditCode = (regionCode: number, serial: number) => {
  const first17 = `91${String(regionCode).padStart(6, '0').slice(0, 6)}${orgCodeOf(serial)}`;
  return first17 + creditCodeCheckChar(first17);
};

/**
 * The fictional company number `serial`; with `nameCore` (a provider double's search word) its
 * name carries that word. Same inputs, same company.
 */
export const fictionalCompany = (serial: number, nameCore?: string): FictionalCompany => {
  const rand = seededRandom(serial * 2654435761 + (nameCore ? hashText(nameCore) : 0));
  const [cityCode, cityName, cityLat, cityLng, , areaCode] = cityOf(rand);
  const city = findRegion(cityCode);
  const districts: Region[] = city?.children ?? [];
  const district = districts.length > 0 ? pick(rand, districts) : undefined;
  const provinceCode = city ? city.parent_id : Math.floor(cityCode / 10000) * 10000;
  const [industryCode, words, scope] = pick(rand, TRADES);
  const core = nameCore ?? `${pick(rand, CORES)}${rand() < 0.5 ? pick(rand, CORES) : ''}`;
  const name = `${cityName}${core}${pick(rand, words)}${pick(rand, FORMS)}`;
  const statusDraw = rand();
  const status = statusDraw < 0.86 ? 1 : statusDraw < 0.95 ? 2 : 3;
  const year = 1995 + Math.floor(rand() * 31);
  const month = 1 + Math.floor(rand() * 12);
  const day = 1 + Math.floor(rand() * 28);
  const phones: string[] = [];
  if (rand() < 0.6)
    // 8-digit landlines starting 6–8 (the major cities' length): valid numbers for the dialer's checks
    phones.push(`${areaCode}-${60000000 + Math.floor(rand() * 29999999)}`);
  if (rand() < 0.45) phones.push(`1${pick(rand, ['3', '5', '7', '8', '9'])}${String(Math.floor(rand() * 1e9)).padStart(9, '0')}`);
  // within ~25 km of the centre, denser near it
  const r = rand() ** 1.5 * 0.22;
  const angle = rand() * Math.PI * 2;
  const lat = Math.round((cityLat + r * Math.sin(angle)) * 1e6) / 1e6;
  const lng = Math.round((cityLng + (r * Math.cos(angle)) / Math.cos((cityLat * Math.PI) / 180)) * 1e6) / 1e6;
  return {
    creditCode: fictionalCreditCode(district?.value ?? cityCode, serial),
    name,
    legalRep: `${pick(rand, [...SURNAMES])}${pick(rand, [...GIVEN])}${rand() < 0.5 ? pick(rand, [...GIVEN]) : ''}`,
    status,
    provinceCode,
    cityCode,
    districtCode: district?.value ?? null,
    industryCode,
    capitalWan: pick(rand, CAPITALS),
    foundedOn: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    address: `${city?.label ?? cityName}${district?.label ?? ''}${pick(rand, STREETS)}${1 + Math.floor(rand() * 999)}号`,
    scope: `${scope}（依法须经批准的项目，经相关部门批准后方可开展经营活动）`,
    phones,
    lat,
    lng,
  };
};
