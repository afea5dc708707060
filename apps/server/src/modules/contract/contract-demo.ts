import type { Db } from '../../db/client';
import { now } from '../../lib/clock';
import * as repo from './contract.repo';

/**
 * The demo company's contract settings (issue 26), so 生成合同 works on the first start: the e-sign
 * account (a fictional company with a well-formed 统一社会信用代码), a 合同专用章 drawn by the platform and
 * a standard sales contract template. Its certificate is made on the first archive.
 */
export const DEMO_CONTRACT_BODY = [
  '甲乙双方本着平等互利的原则，经友好协商，就乙方向甲方采购产品及服务事宜达成如下协议，以资共同遵守。',
  '# 第一条 产品与价格',
  '乙方{{customer_name}}向甲方采购以下产品：',
  '{{products}}',
  '合同总金额：人民币{{amount_lower}}（大写：{{amount_upper}}）。',
  '# 第二条 服务期限',
  '服务期限：{{service_period}}。',
  '# 第三条 付款方式',
  '乙方按以下付款条款将合同款项支付至甲方收款账户：{{bank_account}}。',
  '{{payment_terms}}',
  '乙方逾期付款的，甲方有权暂停提供服务，直至乙方付清应付款项。',
  '# 第四条 双方权利与义务',
  '甲方按约定提供产品与服务，并在服务期限内提供技术支持；乙方按约定支付款项，并配合甲方完成实施工作。',
  '# 第五条 其他',
  '本合同自双方签署之日起生效，以电子签名方式签署，与纸质合同具有同等法律效力。联系人：{{contact_name}}，电话：{{contact_phone}}。',
].join('\n');

export const seedDemoContract = async (db: Db, tenantId: number, adminId: number, companyName: string) => {
  const at = now();
  await repo.saveAccount(db, {
    tenantId,
    companyName,
    // fictional, but passes the GB 32100 check character
    creditCode: '91350100M000100Y43',
    legalRep: '系统管理员',
    status: 1,
    updatedAt: at,
  });
  await repo.insertSeal(db, { tenantId, name: '合同专用章', kind: 1, staffIds: [], createdBy: adminId, createdAt: at });
  await repo.insertTemplate(db, {
    tenantId,
    name: '标准销售合同',
    kind: 1,
    body: DEMO_CONTRACT_BODY,
    fields: [
      { key: 'service_period', label: '服务期限' },
      { key: 'bank_account', label: '收款账户' },
      { key: 'payment_terms', label: '付款条款' },
    ],
    signAreas: [],
    status: 0,
    createdBy: adminId,
    createdAt: at,
    updatedAt: at,
  });
};
