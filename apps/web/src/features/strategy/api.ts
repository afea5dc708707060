import type { Strategy, StrategySetBody } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customerset';
export const strategyKeys = { all: ['strategy'] as const };

export const useStrategy = () =>
  useQuery({ queryKey: strategyKeys.all, queryFn: () => http.get<Strategy>(`${BASE}/strategyinfo`) });

/** Masking and limits change what every customer list shows, so they refresh too. */
export const useSetStrategy = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: StrategySetBody) => http.post<null>(`${BASE}/strategyset`, body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: strategyKeys.all }),
        client.invalidateQueries({ queryKey: ['customers'] }),
        client.invalidateQueries({ queryKey: ['pools'] }),
      ]),
  });
};
