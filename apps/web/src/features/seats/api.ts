import type { SeatsStat } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

/** ['seats'] is refreshed by the phone when a call ends (phone/phoneActions.ts). */
export const seatsKeys = { stat: ['seats', 'stat'] as const };

/** The seats workbench figures of today (Asia/Shanghai) and the caller's latest calls. */
export const useSeatsStat = () =>
  useQuery({
    queryKey: seatsKeys.stat,
    queryFn: () => http.get<SeatsStat>('/api/frontend/seats/stat'),
    refetchInterval: 60_000,
  });
