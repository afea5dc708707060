import { CALL_LIMITS } from './calls';
import { DM_TYPE } from './customers';
import { ERRORS } from './errors';

/**
 * Rules the browser checks before asking and the server checks again: written once, here,
 * so the two never drift apart (issue 11).
 */

/**
 * SPEC §5: a typed number has 4–20 digits, unless the call belongs to a task (then any number
 * with a digit). Returns the refusal message (请正确输入电话号码), or null when the number may be dialled.
 */
export const dialNumberRefusal = (raw: string, isTask = false): string | null => {
  const digits = raw.replace(/\D/g, '').length;
  if (digits === 0) return ERRORS.DIAL_NUMBER_INVALID.msg;
  if (isTask) return null;
  return digits < CALL_LIMITS.dialMinLength || digits > CALL_LIMITS.dialMaxLength ? ERRORS.DIAL_NUMBER_INVALID.msg : null;
};

/** SPEC §5: whole seconds left before a call started at `startedAtMs` may be hung up (0 = now). */
export const hangupWaitSeconds = (startedAtMs: number, nowMs: number): number =>
  Math.max(0, Math.ceil((startedAtMs + CALL_LIMITS.hangupMinSeconds * 1000 - nowMs) / 1000));

/** SPEC §5: the refusal of an early hang-up ('{n}s 后进行挂断'), or null when it is allowed. */
export const hangupRefusal = (startedAtMs: number, nowMs: number): string | null => {
  const left = hangupWaitSeconds(startedAtMs, nowMs);
  return left > 0 ? ERRORS.HANGUP_TOO_EARLY.msg.replace('{n}', String(left)) : null;
};

/** SPEC §5: the message of an empty required template control, by kind. */
export const requiredControlMessage = (c: { name: string; dmType: number }): string => {
  switch (c.dmType) {
    case DM_TYPE.date:
    case DM_TYPE.datetime:
      return '请选择日期';
    case DM_TYPE.file:
      return `请上传${c.name}`;
    case DM_TYPE.select:
    case DM_TYPE.multiSelect:
    case DM_TYPE.address:
    case DM_TYPE.customCascader:
    case DM_TYPE.selectByText:
    case DM_TYPE.tags:
    case DM_TYPE.company:
    case DM_TYPE.cascader:
      return `请选择${c.name}`;
    default:
      return `${c.name}不能为空`;
  }
};
