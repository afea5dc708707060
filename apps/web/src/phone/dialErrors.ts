import { ERRORS } from '@crm/contracts';
import { ApiError } from '../api/http';
import type { PhoneUi } from './callDeps';

type DialErrorUi = PhoneUi & {
  modal:
    | (PhoneUi['modal'] & {
        confirm: (config: { title: string; content: string; okText: string; cancelText: string; onOk: () => void }) => unknown;
      })
    | null;
};

/** Refusals of the company's calling rules: 禁拨, calling hours, per-number caps. */
const COMPLIANCE_CODES: ReadonlySet<number> = new Set([
  ERRORS.DNC_LISTED.code,
  ERRORS.CALL_OUTSIDE_HOURS.code,
  ERRORS.DIAL_CAP_5MIN.code,
  ERRORS.DIAL_CAP_DAY.code,
]);

/**
 * A dial the server refused, shown as SPEC §8 says: the dial lock in a dialog, a blacklisted
 * customer with the offer to discard it to a pool, the calling rules in a dialog, anything else as a message.
 */
export const showDialError = (err: unknown, ui: DialErrorUi, discardToPool: ((cmCtid: number) => void) | null) => {
  if (!(err instanceof ApiError)) {
    // not the server's answer (a bug or the browser): never a silent failure
    console.error('dial failed', err);
    ui.message?.error('呼叫失败，请重试');
    return;
  }
  if (err.code === ERRORS.DIAL_LOCKED.code) {
    ui.modal?.warning({ title: '提示', content: err.message, okText: '知道了' });
    return;
  }
  if (COMPLIANCE_CODES.has(err.code)) {
    // issue 15: the company's calling rules say why and until when; the agent reads it in a dialog
    ui.modal?.warning({ title: '无法拨打', content: err.message, okText: '知道了' });
    return;
  }
  if (err.code === ERRORS.BLACKLISTED.code) {
    // SPEC §8: 100011 carries the customer id; outside a task the agent decides about the pool
    const cmCtid = Number((err.data as { cmCtid?: number } | null)?.cmCtid) || 0;
    if (cmCtid > 0 && discardToPool) {
      ui.modal?.confirm({
        title: err.message,
        content: '黑名单数据是否丢弃到公海?',
        okText: '丢弃到公海',
        cancelText: '取消',
        onOk: () => discardToPool(cmCtid),
      });
    } else ui.message?.error(err.message);
    return;
  }
  // SPEC §8: other non-zero codes reset the request and show the message (network errors too)
  ui.message?.error(err.message);
};
