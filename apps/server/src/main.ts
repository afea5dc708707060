import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemo } from './db/seed/demo';
import { schedulePoolRecycling } from './jobs/pool-recycling';
import { scheduleReminders } from './jobs/reminders';
import { scheduleSessionPurge } from './jobs/session-purge';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
if (config.seedDemo && (await seedDemo(database.db, config.demoPassword))) {
  console.log('已写入演示数据：演示科技有限公司');
}
const app = await buildApp(config, database);

await schedulePoolRecycling(app.queue, app.db, app.log);
await scheduleSessionPurge(app.queue, app.db, app.log);
await scheduleReminders(app.queue, app.db, app.calls?.bus, app.log);

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
