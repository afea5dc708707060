import type { CustomerRow } from '@crm/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/http';

/** Customers whose name contains `name`, for the company control (kind 20). */
export const useCompanyOptions = (name: string, enabled: boolean) =>
  useQuery({
    queryKey: ['customers', 'company-options', name],
    queryFn: async () => {
      try {
        const data = await http.post<{ list: CustomerRow[] }>(
          '/api/frontend/customer/allotlist',
          { name, page: 1, limit: 20 },
          // A picker, not a page: a refused search shows no options instead of a toast per keystroke.
          { silent: true },
        );
        return data.list.map((c) => ({ value: String(c.cmCtid), label: c.name || `客户${c.cmCtid}` }));
      } catch {
        return [];
      }
    },
    enabled,
    placeholderData: keepPreviousData,
  });
