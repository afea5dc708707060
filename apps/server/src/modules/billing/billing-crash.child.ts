import { openDatabase } from '../../db/client';
import { rateTenantBatch, recharge } from './billing.service';

// The process billing-crash.api.test.ts kills with SIGKILL (issue 27: kill -9 during rating and
// during a recharge). It runs the real billing code on the test's PostgreSQL database:
//   rate <url> <tenant>       rates the company's pending calls, 7 per transaction, until none is left
//   recharge <url> <tenant> <n>  records the recharges crash-1 … crash-n (amount 100 + i), in order
// and prints `ready` once connected, then a line per transaction committed.
const [mode, url, tenantArg, countArg] = process.argv.slice(2);
const tenantId = Number(tenantArg);
const database = await openDatabase({ databaseUrl: url, pgliteDir: '' });
console.log('ready');
if (mode === 'rate') {
  for (;;) {
    const r = await rateTenantBatch(database.db, tenantId, 7);
    if (r.rated === 0) break;
    console.log(`rated ${r.rated}`);
  }
} else if (mode === 'recharge') {
  for (let i = 1; i <= Number(countArg); i++) {
    await recharge(database.db, {
      company: tenantId,
      amount: 100 + i,
      bonus: 0,
      channel: '对公转账',
      ref: `crash-${i}`,
      operator: '崩溃测试',
      remark: '',
    });
    console.log(`recharged ${i}`);
  }
}
await database.close();
