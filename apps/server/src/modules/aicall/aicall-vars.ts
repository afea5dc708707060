import type { DbOrTx } from '../../db/client';
import { companyNameOf } from '../company/company-for-aicall';
import { findCustomerRecord } from '../customers/customers.service';

/** Who the bot says it is ({坐席姓名}) on AI task calls. */
export const BOT_AGENT_NAME = 'AI助手';

/**
 * The variables of a task call's prompts (issue 16): {客户名称} and {联系人} from the number's
 * customer (客户 / the customer's name when he has no contact), {公司名称} the company's name,
 * {坐席姓名} the bot's name.
 */
export const botVarsOf = async (db: DbOrTx, tenantId: number, customerId: number | null): Promise<Record<string, string>> => {
  const [customer, companyName] = await Promise.all([
    customerId ? findCustomerRecord(db, tenantId, customerId) : Promise.resolve(undefined),
    companyNameOf(db, tenantId),
  ]);
  const name = customer?.name || '客户';
  return {
    客户名称: name,
    联系人: customer?.contactName || name,
    公司名称: companyName,
    坐席姓名: BOT_AGENT_NAME,
  };
};
