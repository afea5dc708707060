import type { Config } from '../config';
import type { TelephonyProvider } from './provider';
import { createSimProvider } from './sim/sim-provider';

/** The configured line (TELEPHONY): the built-in sim carrier; the sip driver arrives with its issue. */
export const createProvider = (config: Config): TelephonyProvider => {
  if (config.telephony === 'sip') throw new Error('配置错误: TELEPHONY=sip 线路尚未提供，请使用 sim');
  return createSimProvider({ speed: config.simSpeed, talkSeconds: config.simTalkSeconds });
};
