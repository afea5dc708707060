import { PhoneOutlined } from '@ant-design/icons';
import { CALL_STATUS } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { FloatButton } from 'antd';
import { useEffect, useState } from 'react';
import { callSocket } from '../../api/callSocket';
import { useAiTranscriptFrames } from '../../features/aicall/transcript';
import { DiscardDialog } from '../../features/pools/components/DiscardDialog';
import { useMarkMissedSeen, useMissedCalls } from '../missedCalls';
import { bindBlacklistDiscard, bindQueryClient, loadExtension, onCallButton } from '../phoneActions';
import { useCall, useExtension } from '../phoneStore';
import { CallBar } from './CallBar';
import { CALL_LAYER_Z } from './callLayer';
import { DialModal } from './DialModal';
import { InCallModal } from './InCallModal';

/**
 * The phone of the signed-in area: connects the call socket, loads the default extension and
 * shows the floating call button (badge = missed incoming calls) with the dial and in-call modals.
 */
export const PhoneDock = () => {
  const queryClient = useQueryClient();
  const callStatus = useCall((s) => s.callStatus);
  const isDialOpen = useCall((s) => s.isDialOpen);
  const unread = useMissedCalls().data ?? 0;
  const { mutate: markSeen } = useMarkMissedSeen();
  const isLoaded = useExtension((s) => s.isLoaded);
  // SPEC §8 100011: a blacklisted customer may be discarded to a shared pool
  const [blacklisted, setBlacklisted] = useState<number | null>(null);
  // 转人工: the transcripts the bot pushes, for the in-call modal
  useAiTranscriptFrames();

  useEffect(() => {
    bindBlacklistDiscard(setBlacklisted);
    return () => bindBlacklistDiscard(null);
  }, []);

  useEffect(() => {
    bindQueryClient(queryClient);
    callSocket.connect();
    if (!isLoaded) void loadExtension();
  }, [queryClient, isLoaded]);

  // SPEC §2: the missed calls count until seen; opening the dial panel shows them seen
  useEffect(() => {
    if (isDialOpen && unread > 0) markSeen();
  }, [isDialOpen, unread, markSeen]);

  const isInCall = callStatus > CALL_STATUS.ready;
  return (
    <>
      <FloatButton
        type="primary"
        icon={<PhoneOutlined />}
        aria-label={isInCall ? '通话中' : '拨号'}
        tooltip={isInCall ? '返回通话' : unread > 0 ? `未接来电 ${unread} 个` : '拨号'}
        badge={{ count: unread }}
        // above drawers, so a hidden call can always be brought back
        style={{
          // in the space the layout keeps free at the bottom of every page (AppLayout .content)
          insetInlineEnd: 20,
          insetBlockEnd: 20,
          zIndex: CALL_LAYER_Z,
          ...(isInCall ? { backgroundColor: '#52c41a' } : {}),
        }}
        onClick={onCallButton}
      />
      <DialModal />
      <InCallModal />
      <CallBar />
      {blacklisted !== null && <DiscardDialog open cmCtids={[blacklisted]} onClose={() => setBlacklisted(null)} />}
    </>
  );
};
