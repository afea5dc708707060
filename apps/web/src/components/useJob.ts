/** The progress of one background job (import, export, batch allot), polled each second while it runs. */
import type { JobInfo } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../api/http';

export const useJob = (jobId: string | null) =>
  useQuery({
    queryKey: ['customer-job', jobId],
    queryFn: () => http.get<JobInfo>('/api/frontend/customer/job', { jobId }),
    enabled: jobId !== null,
    staleTime: 0,
    refetchInterval: (q) => (q.state.data?.status === 'running' || (!q.state.data && !q.state.error) ? 1000 : false),
  });
