import type { Company, CompanyEditBody, CompanyModules } from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';
import { refreshSession } from '../auth/api';

export const companyKeys = {
  all: ['company'] as const,
  info: () => [...companyKeys.all, 'info'] as const,
  modules: () => [...companyKeys.all, 'modules'] as const,
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

/** The company's module switches (订单 / 回款 / 工单). */
export const useCompanyModules = () =>
  useQuery({ queryKey: companyKeys.modules(), queryFn: () => http.get<CompanyModules>('/api/frontend/company/modules') });

export const useSaveCompanyModules = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CompanyModules) => http.post<null>('/api/frontend/company/modulesave', body),
    onSuccess: async () => {
      // the side menu hides a switched-off module; the customer drawer shows its alert
      await Promise.all([
        client.invalidateQueries({ queryKey: companyKeys.all }),
        client.invalidateQueries({ queryKey: ['customers'] }),
        refreshSession().catch(() => undefined),
      ]);
    },
  });
};
