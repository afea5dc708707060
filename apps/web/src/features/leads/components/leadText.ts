import type { LeadExistingCustomer } from '@crm/contracts';

const MATCHED_BY: Record<string, string> = { creditCode: '信用代码相同', phone: '电话相同', name: '名称相近' };

/** Whose customer a lead already is, as the server tells (out of the caller's scope: name and owner only). */
export const existingText = (e: LeadExistingCustomer) => {
  const where = e.place === 'pool' ? `公海「${e.ownerName || '未知'}」` : e.ownerName ? `${e.ownerName}的客户` : '他人的客户';
  return `${where}（${MATCHED_BY[e.matchedBy] ?? e.matchedBy}）`;
};

/** 注册资本 in 万元 as the pages show it. */
export const capitalText = (wan: number) => (wan > 0 ? `${wan.toLocaleString('zh-CN')} 万元` : '-');
