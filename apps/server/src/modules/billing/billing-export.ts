import {
  BILLING_LIMITS,
  type BillingChargeRow,
  type BillingFilterQuery,
  CALL_TYPE_LABEL,
  formatBillingRate,
  formatBillingYuan,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { defineExportJob, type XlsxRow } from '../jobs/xlsx-export';
import { countCharges, rangeOf, readCharges } from './billing-reports';

const BATCH = 2000;

/** The 消费明细 rows of the filters, newest first, a batch at a time (keyset on the ledger id). */
async function* chargeBatches(db: Db, actor: Actor, query: BillingFilterQuery): AsyncGenerator<XlsxRow[]> {
  let beforeId: number | undefined;
  let done = 0;
  while (done < BILLING_LIMITS.exportRows) {
    const list = await readCharges(db, actor, query, { limit: Math.min(BATCH, BILLING_LIMITS.exportRows - done), beforeId });
    if (list.length === 0) return;
    yield list.map(toRow);
    done += list.length;
    beforeId = list[list.length - 1].id;
  }
}

const toRow = (r: BillingChargeRow): XlsxRow => ({
  at: r.at,
  kind: r.kind_label,
  staff: r.staff_name,
  task: r.task_name,
  line: r.line,
  callee: r.callee,
  direction: CALL_TYPE_LABEL[r.direction] ?? '',
  answerAt: r.answer_at,
  endAt: r.end_at,
  duration: r.duration,
  billed: r.billed_seconds,
  increment: r.first_block ? `${r.first_block}/${r.increment}` : '',
  rate: r.rate ? formatBillingRate(r.rate) : '',
  amount: formatBillingYuan(r.amount),
  balance: formatBillingYuan(r.balance_after),
  uuid: r.call_uuid,
  remark: r.remark,
});

const startChargeExport = defineExportJob<{ query: BillingFilterQuery }>('billing-export', async (db, actor, { query }) => ({
  title: '消费明细',
  sheet: '消费明细',
  columns: [
    { header: '时间', key: 'at', width: 20 },
    { header: '类型', key: 'kind', width: 12 },
    { header: '员工', key: 'staff', width: 10 },
    { header: '任务', key: 'task', width: 16 },
    { header: '线路/主叫号码', key: 'line', width: 16 },
    { header: '被叫号码', key: 'callee', width: 16 },
    { header: '呼叫方向', key: 'direction', width: 8 },
    { header: '接通时间', key: 'answerAt', width: 20 },
    { header: '挂断时间', key: 'endAt', width: 20 },
    { header: '通话时长(秒)', key: 'duration', width: 12 },
    { header: '计费时长(秒)', key: 'billed', width: 12 },
    { header: '计费步长(秒)', key: 'increment', width: 12 },
    { header: '费率(元/分钟)', key: 'rate', width: 12 },
    { header: '费用(元)', key: 'amount', width: 12 },
    { header: '余额(元)', key: 'balance', width: 14 },
    { header: '通话ID', key: 'uuid', width: 38 },
    { header: '备注', key: 'remark', width: 24 },
  ],
  total: Math.min(await countCharges(db, actor, query), BILLING_LIMITS.exportRows),
  rows: chargeBatches(db, actor, query),
}));

/** billing/export: 消费明细 of the filters as .xlsx through the one export path (a durable job). */
export const startBillingExport = async (db: Db, actor: Actor, query: BillingFilterQuery) => {
  rangeOf(query);
  return startChargeExport(db, actor, { query });
};
