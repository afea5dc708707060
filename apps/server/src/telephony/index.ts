import type { Config } from '../config';
import type { TelephonyProvider } from './provider';
import { createSimProvider } from './sim/sim-provider';
import { createSipProvider } from './sip/sip-provider';

/** The configured line (TELEPHONY): the built-in sim carrier, or the real sip line (Kamailio + rtpengine). */
export const createProvider = (config: Config): TelephonyProvider => {
  if (config.telephony === 'sip') return createSipProvider({ recordingDir: config.sip.recordingDir });
  return createSimProvider({ speed: config.simSpeed, talkSeconds: config.simTalkSeconds });
};
