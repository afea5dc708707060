import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { phoneApi } from './api';

/** Under ['calls']: the phone refreshes it with the call lists whenever a call ends. */
export const missedCallsKey = ['calls', 'missed'] as const;

/** SPEC §2: the call button's badge, missed incoming calls the agent has not seen yet. */
export const useMissedCalls = (isEnabled = true) =>
  useQuery({
    queryKey: missedCallsKey,
    queryFn: async () => (await phoneApi.missedCount()).count,
    enabled: isEnabled,
  });

/** The agent saw his missed calls (the dial panel opened, or the record list filtered to them). */
export const useMarkMissedSeen = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: phoneApi.markMissedSeen,
    onSuccess: () => client.setQueryData(missedCallsKey, 0),
  });
};
