// first: the heap's growth policy applies to everything the app allocates
import './lib/heap-policy';
import path from 'node:path';
import { buildApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemo } from './db/seed/demo';
import { seedDemoHistory } from './db/seed/demo-history';
import { schedulePoolRecycling } from './jobs/pool-recycling';
import { scheduleReminders } from './jobs/reminders';
import { scheduleSessionPurge } from './jobs/session-purge';
import { seedDemoBilling } from './modules/billing/billing-demo';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
const seeded = config.seedDemo && (await seedDemo(database.db, config.demoPassword));
if (seeded) console.log('已写入演示数据：演示科技有限公司');
const app = await buildApp(config, database);
// the demo company's rate plan and balance (issue 27), before its history's calls are rated
if (seeded) await seedDemoBilling(app.db);
if (seeded && config.demoHistory) {
  // a few months of orders, receipts, work orders and calls through the app itself (issue 23.6)
  const started = Date.now();
  try {
    const n = await seedDemoHistory(app, config.demoPassword);
    console.log(
      `已写入演示历史：订单 ${n.orders}、回款 ${n.receipts}、工单 ${n.workOrders}、通话 ${n.calls}、AI通话 ${n.aiCalls}（${Date.now() - started} ms）`,
    );
  } catch (e) {
    // the demo company works without its history: say so and start
    console.warn(`演示历史未写完：${(e as Error).message}`);
  }
}

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
