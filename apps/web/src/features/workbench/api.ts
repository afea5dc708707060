import type { WorkbenchSummary } from '@crm/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

export const useWorkbenchSummary = () =>
  useQuery({ queryKey: ['workbench', 'summary'], queryFn: () => http.get<WorkbenchSummary>('/api/frontend/workbench/summary') });
