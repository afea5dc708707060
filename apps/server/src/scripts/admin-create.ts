import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { provisionCompany } from '../db/seed/provision';

// npm run admin:create -- --company 某某公司 --username boss --name 王总 --phone 13900000000 --password Secret123
const { values } = parseArgs({
  options: {
    company: { type: 'string' },
    username: { type: 'string' },
    name: { type: 'string' },
    phone: { type: 'string' },
    password: { type: 'string' },
  },
});
const missing = ['company', 'username', 'name', 'phone', 'password'].filter((k) => !values[k as keyof typeof values]);
if (missing.length > 0) {
  console.error(`缺少参数: ${missing.map((m) => `--${m}`).join(' ')}`);
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
const result = await provisionCompany(database.db, {
  companyName: values.company as string,
  adminUsername: values.username as string,
  adminName: values.name as string,
  adminPhone: values.phone as string,
  password: values.password as string,
});
console.log(`已创建企业 #${result.tenantId}，管理员账号 ${values.username}`);
await database.close();
