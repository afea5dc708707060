import { type AicallTranscript, CALL_MSG_TYPE } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { create } from 'zustand';
import { callSocket } from '../../api/callSocket';
import { http } from '../../api/http';

// 转人工 with the transcript (issue 16): the bot pushes what it and the customer said on the call
// socket (msg_type 9) as it rings the agent; the phone keeps the latest per call uuid, and the
// in-call modal shows it (AiTranscriptPanel), reading aicall/transcript while the bot call runs
// (its turns may still grow) and once after the call is stored.

/** Transcripts pushed to this page, by call uuid (a page rings for one call at a time: the last few are kept). */
type PushedState = { byUuid: Record<string, AicallTranscript>; put: (t: AicallTranscript) => void };
const KEEP = 5;

export const usePushedTranscripts = create<PushedState>()((set) => ({
  byUuid: {},
  put: (t) =>
    set((s) => {
      const rest = Object.entries(s.byUuid).filter(([uuid]) => uuid !== t.callUuid);
      return { byUuid: Object.fromEntries([...rest.slice(-(KEEP - 1)), [t.callUuid, t]]) };
    }),
}));

/** Keeps the transcripts the call socket pushes (mounted once, with the phone). */
export const useAiTranscriptFrames = () => {
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== CALL_MSG_TYPE.aiTranscript || !frame.data) return;
        usePushedTranscripts.getState().put(frame.data as AicallTranscript);
      }),
    [],
  );
};

/** While the bot call runs, its turns are read this often. */
export const TRANSCRIPT_POLL_MS = 2_000;

/** The transcript of a call the bot handed over: the pushed one at once, then the route's (live, then stored). */
export const useAiTranscript = (uuid: string | undefined) => {
  const pushed = usePushedTranscripts((s) => (uuid ? s.byUuid[uuid] : undefined));
  const query = useQuery({
    queryKey: ['aicall', 'transcript', uuid],
    queryFn: () => http.get<AicallTranscript>('/api/frontend/aicall/transcript', { uuid }, { silent: true }),
    enabled: Boolean(uuid && pushed),
    refetchInterval: (q) => ((q.state.data ?? pushed)?.isLive === 1 ? TRANSCRIPT_POLL_MS : false),
    retry: 1,
  });
  // the newer of the two: a later push (more turns) wins over an older read
  const data = query.data && (!pushed || query.data.turns.length >= pushed.turns.length) ? query.data : pushed;
  return { isAi: Boolean(pushed), data, isLoading: Boolean(pushed) && !data };
};
