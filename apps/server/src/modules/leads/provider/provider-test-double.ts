/**
 * TEST DOUBLE of the company-data provider (企查查-style open API, qcc-protocol.ts): a real HTTP
 * server on 127.0.0.1 that checks the token headers, enforces a per-key rate limit and answers
 * with FICTIONAL companies generated deterministically from the query (fictional-companies.ts).
 * It is not the product: tests, CI and the development demo use it in place of the paid service.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { industryLabel, industrySectionOf, LEAD_STATUS_LABEL } from '@crm/contracts';
import { findRegion } from '@crm/regions';
import { type FictionalCompany, fictionalCompany, hashText } from '../fictional-companies';
import { wgs84ToGcj02 } from '../geo';
import { normalizeName } from '../lead-names';
import { QCC_PATHS, QCC_STATUS, QCC_TIMESPAN_WINDOW_S, type QccDetail, type QccHit, qccToken } from './qcc-protocol';

export type ProviderTestDouble = {
  url: string;
  /** every request the double took: its key, path and arrival time (ms) */
  requests: { key: string; path: string; at: number }[];
  /** the most requests one key made within any 1-second window */
  maxPerSecond: (key: string) => number;
  /** true: answer every request with HTTP 500 (a provider outage) */
  setFailing: (isFailing: boolean) => void;
  close: () => Promise<void>;
};

export type ProviderTestDoubleOptions = {
  /** AppKey → SecretKey accepted */
  keys: Record<string, string>;
  /** requests a key may make per second before Status 111 (0: no limit) */
  qps?: number;
  port?: number;
};

const SERIAL_SPACE = 800_000_000;

const hitOf = (c: FictionalCompany): QccHit => ({
  KeyNo: hashText(c.creditCode).toString(16).padStart(8, '0') + c.creditCode.slice(-8).toLowerCase(),
  Name: c.name,
  OperName: c.legalRep,
  Status: c.status === 1 ? '存续（在营、开业、在册）' : (LEAD_STATUS_LABEL[c.status] as string),
  CreditCode: c.creditCode,
  StartDate: `${c.foundedOn} 00:00:00`,
  No: c.creditCode.slice(8, 17),
});

const detailOf = (c: FictionalCompany): QccDetail => {
  const gcj = wgs84ToGcj02({ lat: c.lat, lng: c.lng });
  const section = industrySectionOf(c.industryCode) ?? '';
  const phone = c.phones[0] ?? '';
  return {
    ...hitOf(c),
    RegistCapi: `${c.capitalWan}万元人民币`,
    Address: c.address,
    Scope: c.scope,
    Province: findRegion(c.provinceCode)?.label ?? '',
    Industry: {
      IndustryCode: section,
      Industry: industryLabel(section),
      SubIndustryCode: c.industryCode,
      SubIndustry: industryLabel(c.industryCode),
    },
    Area: {
      Province: findRegion(c.provinceCode)?.label ?? '',
      City: findRegion(c.cityCode)?.label ?? '',
      County: c.districtCode ? (findRegion(c.districtCode)?.label ?? '') : '',
      CountyCode: c.districtCode ? String(c.districtCode) : '',
    },
    ContactInfo: { PhoneNumber: phone, MoreTelList: c.phones.slice(1) },
    GisInfo: { Lat: gcj.lat.toFixed(6), Lng: gcj.lng.toFixed(6), CoordType: 'GCJ02' },
  };
};

/** The companies a search word finds: 3–10 fictional ones carrying the word; a full name is found as itself first. */
const companiesFor = (searchKey: string): FictionalCompany[] => {
  const word = searchKey.trim();
  const h = hashText(normalizeName(word));
  const n = 3 + (h % 8);
  const isFullName = /公司$/.test(word);
  const core = word.replace(/(股份有限公司|有限责任公司|有限公司|公司)$/, '').slice(-8);
  const list: FictionalCompany[] = [];
  for (let i = 0; i < n; i++) {
    const c = fictionalCompany(((h % (SERIAL_SPACE / 16)) * 16 + i) % SERIAL_SPACE, core || word);
    list.push(i === 0 && isFullName ? { ...c, name: word } : c);
  }
  return list;
};

/** Starts the double; `close()` stops it. */
export const startProviderTestDouble = async (opts: ProviderTestDoubleOptions): Promise<ProviderTestDouble> => {
  const requests: ProviderTestDouble['requests'] = [];
  let isFailing = false;
  const known = new Map<string, FictionalCompany>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = url.searchParams.get('key') ?? '';
    const at = Date.now();
    requests.push({ key, path: url.pathname, at });
    if (isFailing) return send(res, 500, { Status: '500', Message: '服务器内部错误' });
    const secret = opts.keys[key];
    const timespan = String(req.headers.timespan ?? '');
    const token = String(req.headers.token ?? '');
    const isFresh = Math.abs(Date.now() / 1000 - Number(timespan)) <= QCC_TIMESPAN_WINDOW_S;
    if (secret === undefined || !isFresh || token !== qccToken(key, timespan, secret)) {
      return send(res, 200, { Status: QCC_STATUS.badToken, Message: '【无效请求】Key或Token不正确' });
    }
    if (opts.qps && requests.filter((r) => r.key === key && at - r.at < 1000).length > opts.qps) {
      return send(res, 200, { Status: QCC_STATUS.tooFast, Message: '【请求过快】超过每秒请求次数限制' });
    }
    const orderNumber = `DOUBLE${at}`;
    if (url.pathname === QCC_PATHS.search) {
      const searchKey = url.searchParams.get('searchKey') ?? '';
      const pageIndex = Math.max(1, Number(url.searchParams.get('pageIndex') ?? 1));
      const pageSize = Math.min(20, Math.max(1, Number(url.searchParams.get('pageSize') ?? 10)));
      if (!searchKey.trim()) return send(res, 200, { Status: QCC_STATUS.empty, Message: '【查询无结果】' });
      const all = companiesFor(searchKey);
      for (const c of all) {
        known.set(normalizeName(c.name), c);
        known.set(c.creditCode, c);
      }
      const page = all.slice((pageIndex - 1) * pageSize, pageIndex * pageSize);
      return send(res, 200, {
        Status: page.length > 0 ? QCC_STATUS.ok : QCC_STATUS.empty,
        Message: page.length > 0 ? '【有效请求】查询成功' : '【查询无结果】',
        OrderNumber: orderNumber,
        Paging: { PageSize: pageSize, PageIndex: pageIndex, TotalRecords: all.length },
        Result: page.map(hitOf),
      });
    }
    if (url.pathname === QCC_PATHS.detail) {
      const keyword = (url.searchParams.get('keyword') ?? '').trim();
      const c =
        known.get(keyword.toUpperCase()) ??
        known.get(normalizeName(keyword)) ??
        (/公司$/.test(keyword) ? companiesFor(keyword)[0] : undefined);
      if (!c) return send(res, 200, { Status: QCC_STATUS.empty, Message: '【查询无结果】' });
      return send(res, 200, {
        Status: QCC_STATUS.ok,
        Message: '【有效请求】查询成功',
        OrderNumber: orderNumber,
        Result: detailOf(c),
      });
    }
    return send(res, 404, { Status: '404', Message: '接口不存在' });
  };

  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      send(res, 500, { Status: '500', Message: '服务器内部错误' });
    }
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    maxPerSecond: (key) => {
      const times = requests.filter((r) => r.key === key).map((r) => r.at);
      let best = 0;
      for (let i = 0, j = 0; i < times.length; i++) {
        while ((times[i] as number) - (times[j] as number) >= 1000) j++;
        best = Math.max(best, i - j + 1);
      }
      return best;
    },
    setFailing: (value) => {
      isFailing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
