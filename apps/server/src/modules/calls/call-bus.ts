import type { CallFrame, CallProgress, DeviceServerFrame } from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { PubSub } from '../../lib/pubsub';
import type { AnyProvider } from '../../telephony';
import type { CallControlLine } from '../../telephony/control';
import type { HangupSideValue } from '../../telephony/provider';
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

/** Where a trunk call offered to the app belongs (AI reception): its company, or undefined to refuse it. */
export type InboundRoute = (call: { from: string; to: string; legId: string }) => Promise<{ tenantId: number } | undefined>;

/** This instance's call-control state (call-control*.ts): what only the process holding the legs knows. */
export type ControlState = {
  /** the side a hang-up the app asked for is recorded with (the line reports the system) */
  sides: Map<string, HangupSideValue>;
  /** commands sent to other instances, waiting for their reply */
  pending: Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout }>;
  inboundRoute?: InboundRoute;
  /**
   * agent legs whose phone answers by itself (a group dialer's put-through to an agent in work mode,
   * issue 23): their frames say autoAnswer, his phone answers with a short tone instead of ringing
   */
  autoAnswer?: Set<string>;
};

/** What the calls module runs on: database, config, the telephony line and the pub/sub. */
export type CallRuntime = {
  db: Db;
  config: Config;
  provider: AnyProvider;
  bus: PubSub;
  /** the call-control line (issue 12): legs the server places, answers, bridges, plays into */
  line: CallControlLine;
  /** this app instance (INSTANCE_ID): the owner of the legs its line holds */
  instanceId: string;
  control: ControlState;
};
