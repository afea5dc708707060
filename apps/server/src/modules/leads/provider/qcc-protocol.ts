/**
 * The wire format of a 企查查-style company-data open API (the shape public integrations use):
 * GET `FuzzySearch/GetList?key&searchKey&pageIndex&pageSize` and
 * GET `ECIV4/GetBasicDetailsByName?key&keyword`, authenticated by the headers
 * `Token = MD5(key + Timespan + SecretKey)` in upper case and `Timespan` (Unix seconds).
 * Answers carry `Status` ('200' ok, '201' no result, '101' bad key or token, '111' too many
 * requests) and `Message`. The adapter (lead-provider.ts) and the test double speak this.
 */
import { createHash } from 'node:crypto';

export const QCC_PATHS = { search: '/FuzzySearch/GetList', detail: '/ECIV4/GetBasicDetailsByName' } as const;
export const QCC_STATUS = { ok: '200', empty: '201', badToken: '101', tooFast: '111' } as const;
/** A Timespan further than this from the server's clock is refused (replay protection). */
export const QCC_TIMESPAN_WINDOW_S = 600;

export const qccToken = (key: string, timespan: string, secret: string) =>
  createHash('md5').update(`${key}${timespan}${secret}`).digest('hex').toUpperCase();

export type QccHit = {
  KeyNo: string;
  Name: string;
  OperName: string;
  /** 存续 / 在业 / 注销 / 吊销 … */
  Status: string;
  CreditCode: string;
  /** 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm:ss' */
  StartDate: string;
  No: string;
};

export type QccSearchAnswer = {
  Status: string;
  Message: string;
  OrderNumber?: string;
  Paging?: { PageSize: number; PageIndex: number; TotalRecords: number };
  Result?: QccHit[];
};

export type QccDetail = QccHit & {
  /** '100万元人民币', '50万美元' … */
  RegistCapi: string;
  Address: string;
  Scope: string;
  Province: string;
  Industry?: { IndustryCode: string; Industry: string; SubIndustryCode: string; SubIndustry: string };
  Area?: { Province: string; City: string; County: string; CountyCode?: string };
  ContactInfo?: { PhoneNumber: string; Email?: string; MoreTelList?: string[] };
  /** coordinates as the provider gives them, with their system */
  GisInfo?: { Lat: string; Lng: string; CoordType: 'GCJ02' | 'BD09' | 'WGS84' };
};

export type QccDetailAnswer = { Status: string; Message: string; OrderNumber?: string; Result?: QccDetail };
