import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatBillingYuan, operatorRechargeBody } from '@crm/contracts';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { AppError } from '../lib/app-error';
import { recharge } from '../modules/billing/billing.service';

// The platform operator records a recharge (issue 27; there is no payment gateway: the money
// arrived by the channel named, the reference is the bank slip or transfer number):
// npm run billing:recharge -- --company 演示科技有限公司 --amount 1000 --channel 对公转账 --ref HK20261128001 [--bonus 100] [--operator 张三]
const { values } = parseArgs({
  options: {
    company: { type: 'string' },
    amount: { type: 'string' },
    bonus: { type: 'string' },
    channel: { type: 'string' },
    ref: { type: 'string' },
    operator: { type: 'string' },
    remark: { type: 'string' },
  },
});
const missing = ['company', 'amount', 'channel', 'ref'].filter((k) => !values[k as keyof typeof values]);
if (missing.length > 0) {
  console.error(`缺少参数: ${missing.map((m) => `--${m}`).join(' ')}`);
  process.exit(1);
}
/** yuan with at most 4 decimals → 1/10,000 yuan, without floating-point arithmetic */
const units = (yuan: string, what: string) => {
  const m = /^(\d{1,9})(?:\.(\d{1,4}))?$/.exec(yuan.trim());
  if (!m) {
    console.error(`${what}格式不正确：${yuan}（元，最多4位小数）`);
    process.exit(1);
  }
  return Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0'));
};
const parsed = operatorRechargeBody.safeParse({
  company: values.company,
  amount: units(values.amount as string, '充值金额'),
  bonus: values.bonus ? units(values.bonus, '赠送金额') : 0,
  channel: values.channel,
  ref: values.ref,
  operator: values.operator || '平台运营（命令行）',
  remark: values.remark ?? '',
});
if (!parsed.success) {
  console.error(parsed.error.issues.map((i) => i.message).join('；'));
  process.exit(1);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'pglite') });
try {
  const r = await recharge(database.db, parsed.data);
  console.log(
    r.is_new
      ? `已充值：企业 #${r.tenant_id}，充值记录 #${r.recharge_id}，当前余额 ${formatBillingYuan(r.balance)} 元`
      : `该流水号已充值过（充值记录 #${r.recharge_id}），未重复入账；当前余额 ${formatBillingYuan(r.balance)} 元`,
  );
} catch (e) {
  console.error(e instanceof AppError ? e.message : String(e));
  process.exitCode = 1;
} finally {
  await database.close();
}
