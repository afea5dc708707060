import type { Company, CompanyEditBody } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { refreshSession } from '../auth/api';

export const companyKeys = {
  all: ['company'] as const,
  info: () => [...companyKeys.all, 'info'] as const,
};

export const useCompanyInfo = () =>
  useQuery({ queryKey: companyKeys.info(), queryFn: () => http.get<Company>('/api/frontend/company/info') });

export const useEditCompany = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyEditBody) => http.post<null>('/api/frontend/company/edit', body),
    onSuccess: async () => {
      // The company name also lives in the session (workbench, header).
      await Promise.all([
        client.invalidateQueries({ queryKey: companyKeys.all }),
        client.invalidateQueries({ queryKey: ['workbench'] }),
        refreshSession().catch(() => undefined),
      ]);
    },
  });
};
