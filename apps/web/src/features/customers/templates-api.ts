import type {
  CustomerCreateBody,
  CustomerDetail,
  CustomerEditBody,
  TemplateControlBody,
  TemplateControlEditBody,
  TemplateInfo,
} from '@crm/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/customer';

export const templateKeys = {
  all: ['customer-template'] as const,
  info: (isSearch: 0 | 1) => [...templateKeys.all, 'info', isSearch] as const,
  design: () => [...templateKeys.all, 'design'] as const,
};

export const customerKeys = {
  /** The list pages' keys start with 'customers'; a saved customer refreshes them all. */
  lists: ['customers'] as const,
  info: (cmCtid: number) => ['customer', cmCtid] as const,
};

/**
 * The enabled controls of the company's template (isSearch=1: the ones usable as list
 * filters). staleTime 0: the customer modal re-fetches the template on every open (SPEC §4).
 */
export const useTemplateInfo = (isSearch: 0 | 1, enabled = true) =>
  useQuery({
    queryKey: templateKeys.info(isSearch),
    queryFn: () => http.get<TemplateInfo>(`${BASE}/templateinfo`, { isSearch }),
    enabled,
    staleTime: 0,
  });

/** Every control, disabled ones included (the designer). */
export const useTemplateDesign = () =>
  useQuery({ queryKey: templateKeys.design(), queryFn: () => http.get<TemplateInfo>(`${BASE}/templatedesign`) });

/** One customer with its control values (edit modal, detail). */
export const useCustomerInfo = (cmCtid: number | undefined, enabled = true) =>
  useQuery({
    queryKey: customerKeys.info(cmCtid ?? 0),
    queryFn: () => http.get<CustomerDetail>(`${BASE}/info`, { cmCtid }),
    enabled: enabled && cmCtid !== undefined,
    staleTime: 0,
  });

export const useCreateCustomer = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerCreateBody) => http.post<{ cmCtid: number }>(`${BASE}/create`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: customerKeys.lists }),
  });
};

export const useEditCustomer = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CustomerEditBody) => http.post<null>(`${BASE}/edit`, body),
    onSuccess: (_, body) =>
      Promise.all([
        client.invalidateQueries({ queryKey: customerKeys.lists }),
        client.invalidateQueries({ queryKey: customerKeys.info(body.cmCtid) }),
      ]),
  });
};

/** Template changes reach the designer, the customer modal and the search bars' filters. */
const useInvalidateTemplate = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: templateKeys.all });
};

export const useCreateControl = () => {
  const invalidate = useInvalidateTemplate();
  return useMutation({
    mutationFn: (body: TemplateControlBody) => http.post<{ cbTacid: number }>(`${BASE}/templatecontrolcreate`, body),
    onSuccess: invalidate,
  });
};

export const useEditControl = () => {
  const invalidate = useInvalidateTemplate();
  return useMutation({
    mutationFn: (body: TemplateControlEditBody) => http.post<null>(`${BASE}/templatecontroledit`, body),
    onSuccess: invalidate,
  });
};

export const useDeleteControl = () => {
  const invalidate = useInvalidateTemplate();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(`${BASE}/templatecontroldel`, { id }),
    onSuccess: invalidate,
  });
};

/** Saves the order: sortNum follows the position of each id in `ids`. */
export const useSortControls = () => {
  const invalidate = useInvalidateTemplate();
  return useMutation({
    mutationFn: (ids: number[]) => http.post<null>(`${BASE}/templatesort`, { ids }),
    onSettled: invalidate,
  });
};

export const useSetMustName = () => {
  const invalidate = useInvalidateTemplate();
  return useMutation({
    mutationFn: (isMustName: 0 | 1) => http.post<null>(`${BASE}/templateset`, { isMustName }),
    onSuccess: invalidate,
  });
};
