import { CALL_STATUS, dialNumberRefusal, REGISTER_STATUS, type SipInfo } from '@crm/contracts';

/** SPEC §5 hang-up countdown: one rule with the server (packages/contracts/src/rules.ts). */
export { hangupRefusal } from '@crm/contracts';

/** What the dial checks need to know about the agent (SPEC §5, §6). */
export type DialContext = {
  callStatus: number;
  merchantType: number;
  /** the default extension, null when none */
  sip: SipInfo | null;
  registerStatus: number;
};

/**
 * SPEC §5/§6: why the agent may not dial now, or null. Order matters: a call in progress first,
 * then the extension (none, merchant account without device, normal account not online).
 * `isCallButton` gives the call button's own wording (请点击分机在线) instead of 分机未在线.
 */
export const extensionRefusal = (ctx: DialContext, isCallButton = false): string | null => {
  if (ctx.callStatus > CALL_STATUS.ready) return '通话中请勿重复拨打';
  if (!ctx.sip) return '暂无默认分机';
  if (ctx.merchantType === 2) return ctx.sip.cmDeid > 0 ? null : '分机未绑定设备';
  if (ctx.registerStatus === REGISTER_STATUS.registering) return '分机注册中';
  if (ctx.registerStatus !== REGISTER_STATUS.registered) return isCallButton ? '请点击分机在线' : '分机未在线';
  return null;
};

/** SPEC §5: a typed number has 4–20 digits unless the call belongs to a task (the server's rule). */
export const numberRefusal = (number: string, cmStid?: number): string | null => dialNumberRefusal(number, !!cmStid);

/** mm:ss of a running call (hh:mm:ss past an hour). */
export const formatTalkTime = (seconds: number): string => {
  const s = Math.max(0, Math.floor(seconds));
  const pad = (n: number) => String(n).padStart(2, '0');
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return hms[0] > 0 ? hms.map(pad).join(':') : `${pad(hms[1])}:${pad(hms[2])}`;
};
