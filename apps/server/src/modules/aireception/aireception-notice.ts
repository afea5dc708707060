import { AI_MESSAGE_MSG_TYPE, type AiMessageNotice } from '@crm/contracts';
import { maskPhone } from '../../lib/phone';
import { staffChannel } from '../../lib/pubsub';
import { MESSAGE_MATCH } from '../aicall/bot/bot-message';
import type { BotCallResult } from '../aicall/bot/bot-types';
import type { CallRuntime } from '../calls/call-bus';

// AI接待 留言 (issue 16): a message nobody hears about is lost. When the bot took one, the number's
// agents are told over their socket channel (any instance) with 查看留言, which opens the AI call.
// An agent without an open page finds it under AI接待记录 (结束方式 留言).

const PREVIEW_CHARS = 40;

export const messageNotice = (aiCallId: number, number: string, caller: string, result: BotCallResult): AiMessageNotice => {
  const said = result.turns.find((t) => !t.isAi && t.match === MESSAGE_MATCH)?.text ?? '';
  const text = said.length > PREVIEW_CHARS ? `${said.slice(0, PREVIEW_CHARS)}…` : said;
  return { aiCallId, number, phone: maskPhone(caller), text };
};

/** Tells each agent of the reception number about the message (after it is stored). */
export const notifyMessage = async (rt: CallRuntime, agentIds: number[], notice: AiMessageNotice) => {
  const msg = `${notice.phone} 在 ${notice.number} 留言${notice.text ? `：${notice.text}` : ''}`;
  for (const staffId of agentIds) {
    await rt.bus
      .publish(staffChannel(staffId), { kind: 'frame', frame: { code: 0, msg_type: AI_MESSAGE_MSG_TYPE, msg, data: notice } })
      .catch(() => undefined);
  }
};
