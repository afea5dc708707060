import type { Actor } from '../../lib/auth-context';
import { createFlow, publishFlow } from '../../modules/aibot/aibot.service';
import type { Db } from '../client';

export const DEMO_FLOW_NAME = '云呼CRM推广（示例）';

/** One published demo 话术 (issue 16): the starter flow, so the test console and AI tasks have a flow to use. */
export const seedDemoAibot = async (db: Db, admin: Actor) => {
  const id = await createFlow(db, admin, {
    name: DEMO_FLOW_NAME,
    remark: '示例：确认身份，介绍产品，有意向的转人工；按键1/2/3也可应答',
  });
  await publishFlow(db, admin, id);
  return id;
};
