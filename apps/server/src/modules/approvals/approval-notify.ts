import { APPROVAL_SOCKET_MSG_TYPE } from '@crm/contracts';
import type { PubSub } from '../../lib/pubsub';
import { staffChannel } from '../../lib/pubsub';

/**
 * Who an approval transition concerns, told after the commit over the call socket: the staff's
 * channel already carries ready frames ({ kind: 'frame' } of StaffMessage, sent as they are), so an
 * approval is one more frame kind, msg_type APPROVAL_SOCKET_MSG_TYPE (20), data approvalSocketPayloadSchema.
 * Nothing in the socket changes; a staff without an open socket simply sees it in 我的审批.
 */
export type ApprovalNotice = {
  staffId: number;
  kind: 'todo' | 'cc' | 'result';
  instanceId: number;
  docType: string;
  docId: number;
  status: number;
  text: string;
};

export type Notifier = Pick<PubSub, 'publish'>;

export const sendNotices = async (bus: Notifier | undefined, notices: ApprovalNotice[]) => {
  if (!bus) return;
  for (const { staffId, ...data } of notices) {
    await bus
      .publish(staffChannel(staffId), {
        kind: 'frame',
        frame: { code: 0, msg_type: APPROVAL_SOCKET_MSG_TYPE, msg: data.text, data },
      })
      .catch(() => undefined);
  }
};
