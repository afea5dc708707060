import { aicallCreateBody } from '@crm/contracts';
import type { Actor } from '../../lib/auth-context';
import { createAiTask } from '../../modules/aicall/aicall-tasks.service';
import { saveSetting } from '../../modules/aireception/aireception.service';
import type { Db } from '../client';

export const DEMO_AI_TASK_NAME = 'AI外呼示例任务';

/**
 * One small AI task (issue 16) on the demo 话术, not started: eight numbers of the sim line (the
 * last digit decides the outcome: 1–4 answer, 6 busy, 7 空号, 9 no answer; the next-to-last the sim
 * customer's script), its A/B customers to the creator. Starting it from AI外呼任务 shows the bot at work,
 * at any hour (all week, 00:00–23:59).
 */
export const seedDemoAicall = async (db: Db, admin: Actor, flowId: number) =>
  createAiTask(
    db,
    admin,
    aicallCreateBody.parse({
      name: DEMO_AI_TASK_NAME,
      flowId,
      numbers: [
        '13700000001',
        '13700000011',
        '13700000021',
        '13700000032',
        '13700000043',
        '13700000106',
        '13700000117',
        '13700000129',
      ],
      // every day, the whole day (a range ends at 23:59 at the latest), as the demo company's calling
      // hours (demo.ts): started at any hour it dials at once (issue 23); development seed only
      cmWeeks: [1, 2, 3, 4, 5, 6, 7],
      cmTimes: [{ start: '00:00', end: '23:59' }],
      maxLines: 3,
      maxAttempts: 2,
      redialMinutes: 10,
      wrapUpSeconds: 0,
    }),
  );

export const DEMO_RECEPTION_NUMBER = '4006001000';

/**
 * One AI接待 number on the demo 话术 all day, 转人工 to the admin: 接待设置's 模拟来电 rings it on the sim
 * line (the admin's web phone rings when he is online; otherwise the caller leaves a message).
 */
export const seedDemoReception = async (db: Db, admin: Actor, flowId: number) =>
  saveSetting(db, admin, {
    number: DEMO_RECEPTION_NUMBER,
    flowId,
    from: '00:00',
    to: '24:00',
    cmSidInfo: [admin.staffId],
    isEnabled: 1,
  });
