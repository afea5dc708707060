import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { formatCounts, MoveRefused, moveToPostgres } from '../db/move';

// Stop the app first. npm run db:move-to-postgres -- --to postgres://user@host:5432/crm
const { values } = parseArgs({ options: { to: { type: 'string' } } });
if (!values.to || !/^postgres(ql)?:\/\//.test(values.to)) {
  console.error('缺少参数: --to postgres://用户@主机:5432/数据库（一个新建的空数据库）');
  process.exit(1);
}
const config = loadConfig();
const pgliteDir = path.join(config.dataDir, 'pglite');
console.log(`从 ${pgliteDir} 复制到 ${values.to.replace(/\/\/[^@/]*@/, '//…@')}`);
const source = await openDatabase({ databaseUrl: '', pgliteDir });
try {
  const counts = await moveToPostgres({ source, targetUrl: values.to, log: (line) => console.log(line) });
  console.log(formatCounts(counts));
  console.log('完成：各表行数一致。以 DATABASE_URL 指向该数据库启动应用（DATA_DIR 与文件存储设置保持不变）。');
} catch (err) {
  console.error(err instanceof MoveRefused ? err.message : err);
  process.exitCode = 2;
} finally {
  await source.close();
}
