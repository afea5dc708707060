import { DNC_SOURCE } from '@crm/contracts';
import { onEvent } from '../../lib/events/events';
import { normalisePhone } from '../../lib/phone';
import { addDoNotCall } from './dnc.service';

/** How the 禁拨 list reacts to other domains' events (lib/events, issue 15). */
export const registerComplianceEvents = () => {
  // a seat task's customer refused (the agent's outcome 拒绝): the number goes on the company's
  // 禁拨 list for its retention, so no task and no manual dial reaches it until the entry expires
  onEvent('call.task.refused', 'compliance.dnc', async (tx, { tenantId, payload: p }) => {
    // a number the 禁拨 list cannot hold (an extension, a short code) has nothing to keep
    if (!normalisePhone(p.phone)) return;
    await addDoNotCall(tx, tenantId, p.phone, {
      // no brackets of its own: 115001 puts the reason in brackets (it read 「（客户拒绝（任务：…））」)
      reason: `客户拒绝 · 任务：${p.taskName ?? `#${p.taskId}`}`.slice(0, 50),
      source: DNC_SOURCE.taskRefusal,
      staffId: p.staffId || null,
      customerId: p.customerId || null,
    });
  });
};
