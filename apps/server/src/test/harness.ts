import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../app';
import { type Config, loadConfig } from '../config';
import type { Database } from '../db/client';
import { seedDemo } from '../db/seed/demo';
import { provisionCompany } from '../db/seed/provision';
import { setClockOffsetMs } from '../lib/clock';
import { freshDatabase, type Seed } from './fresh-database';

export const DEMO_PASSWORD = 'demo123456';

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  /** Logs in and returns the token. */
  login: (username: string, password?: string) => Promise<string>;
  get: (url: string, token?: string) => Promise<LightMyRequestResponse>;
  post: (url: string, body: unknown, token?: string) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
};

/** The demo company and 测试二公司, in every test database (seeded once per worker, then copied). */
const seedTestCompanies: Seed = async (database) => {
  await seedDemo(database.db, DEMO_PASSWORD);
  await provisionCompany(database.db, {
    companyName: '测试二公司',
    adminUsername: 'other_admin',
    adminName: '其他管理员',
    adminPhone: '13900000000',
    password: DEMO_PASSWORD,
  });
};

/** Builds the real app on a fresh, migrated database with the demo company and 测试二公司. */
export const createTestApp = async (opts: { dataDir?: string; config?: Partial<Config> } = {}): Promise<TestApp> => {
  const config = loadConfig(undefined, {
    logLevel: 'silent',
    webDist: '/nonexistent',
    isClockControlled: true,
    dataDir: opts.dataDir ?? `/tmp/crm-test-${process.pid}`,
    // test files run in parallel with the same staff ids: their call events stay in-process
    redisUrl: '',
    ...opts.config,
  });
  // A worker runs its files in one module graph (vitest.config.ts, isolate: false): a file that moved
  // the business clock and did not put it back must not move the next file's "today"
  setClockOffsetMs(0);
  const { database, drop } = await freshDatabase(config.databaseUrl, seedTestCompanies);
  const app = await buildApp(config, database);
  await app.ready();
  const headers = (token?: string) => (token ? { authorization: token } : {});
  const t: TestApp = {
    app,
    database,
    get: (url, token) => app.inject({ method: 'GET', url, headers: headers(token) }),
    post: (url, body, token) => app.inject({ method: 'POST', url, payload: body as object, headers: headers(token) }),
    login: async (username, password = DEMO_PASSWORD) => {
      const res = await t.post('/api/frontend/login', { username, password });
      const json = res.json();
      if (json.code !== 0) throw new Error(`login ${username} failed: ${json.msg}`);
      return json.data.token as string;
    },
    close: async () => {
      setClockOffsetMs(0);
      await app.close();
      await database.close();
      await drop();
    },
  };
  return t;
};

/**
 * Uploads `data` as `name` through POST /api/frontend/upload/file (multipart), with any form fields
 * before the file (the upload's `scene`), and answers the reply.
 */
export const uploadAs = (t: TestApp, token: string, name: string, data: Buffer, fields: Record<string, string> = {}) => {
  const boundary = `----crmtest${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/frontend/upload/file',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: token },
  });
};
