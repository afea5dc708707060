import { ERRORS } from '@crm/contracts';

type FollowDraft = {
  remark: string | undefined;
  hasNextFollowTime: boolean;
  /** the follow controls as they would be sent, and as the customer holds them (pre-filled) */
  controls: unknown;
  storedControls: unknown;
};

/**
 * The server's rule (108001, FOLLOW_EMPTY): a follow-up says something: a remark, a next
 * appointment or a changed follow control. Checked in the form before anything is sent.
 */
export const emptyFollowMessage = (d: FollowDraft): string | null => {
  if ((d.remark ?? '').trim() !== '' || d.hasNextFollowTime) return null;
  if (JSON.stringify(d.controls) !== JSON.stringify(d.storedControls)) return null;
  return ERRORS.FOLLOW_EMPTY.msg;
};
