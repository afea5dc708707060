import type { CallFrame, CallProgress, DeviceServerFrame } from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PubSub } from '../../lib/pubsub';
import type { TelephonyProvider } from '../../telephony/provider';
import type { SessionsRevoked } from '../auth/auth.service';

/**
 * Messages on a staff's channel. Progress frames travel with the full number: each socket masks
 * it for its own viewer at the moment it sends the frame (SPEC §6), so one publish serves every socket.
 */
export type StaffMessage =
  | { kind: 'frame'; frame: CallFrame }
  | { kind: 'progress'; msgType: number; msg: string; progress: CallProgress }
  /** a socket of this staff logged in: every other socket of his is replaced (请勿多端登录) */
  | { kind: 'login'; connId: string }
  /** sessions ended (logout, password change, account disabled): their sockets close at once */
  | SessionsRevoked;

/** Messages on a device's channel. */
export type DeviceMessage = { kind: 'command'; frame: DeviceServerFrame } | { kind: 'login'; connId: string };

/** What the calls module runs on: database, config, the telephony line and the pub/sub. */
export type CallRuntime = {
  db: Db;
  config: Config;
  provider: TelephonyProvider;
  bus: PubSub;
};
