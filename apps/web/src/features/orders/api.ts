import type { OrderDetail, OrderListData, OrderListQuery, OrderStoreBody } from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/order';

export type OrderListParams = Partial<OrderListQuery> & { page: number; limit: number };

export const orderKeys = {
  all: ['orders'] as const,
  list: (p: OrderListParams) => [...orderKeys.all, 'list', p] as const,
  detail: (id: number) => [...orderKeys.all, 'detail', id] as const,
};

/** SPEC §3 order rows: a customer's (drawer tab) or every order in the caller's scope (订单管理). */
export const useOrderList = (params: OrderListParams, enabled = true) =>
  useQuery({
    queryKey: orderKeys.list(params),
    queryFn: () => http.get<OrderListData>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

/** SPEC §3 order detail with its approval trail. */
export const useOrderDetail = (orderId: number | null) =>
  useQuery({
    queryKey: orderKeys.detail(orderId ?? 0),
    queryFn: () => http.get<OrderDetail>(`${BASE}/auditdetail`, { order_id: orderId }),
    enabled: orderId !== null,
  });

/** What an order change touches: order lists and details, approvals, the customer, the workbench. */
export const useInvalidateOrders = () => {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: orderKeys.all }),
      client.invalidateQueries({ queryKey: ['approvals'] }),
      client.invalidateQueries({ queryKey: ['customer'] }),
      client.invalidateQueries({ queryKey: ['customers'] }),
      client.invalidateQueries({ queryKey: ['workbench'] }),
    ]);
};

/** SPEC §4 step 1 of an order submit: the order (待提交 until its approval starts). */
export const storeOrder = (body: OrderStoreBody) => http.post<{ order_id: number }>(`${BASE}/store`, body);

const useOrderPost = <B>(path: string) => {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: (body: B) => http.post<unknown>(`${BASE}/${path}`, body), onSuccess: invalidate });
};

export const useVerifyOrder = () =>
  useOrderPost<{ order_id: number; node_id: number; instance_id?: number; status: 1 | 2; remark: string }>('verify');
export const useWithdrawOrder = () => useOrderPost<{ order_id: number }>('withdraw');
export const useSetCooperators = () => useOrderPost<{ product_order_ids: number[]; staff_ids: number[] }>('cooperators');
export const useTransferOrders = () =>
  useOrderPost<{ product_order_ids: number[]; transfer_to_staff_id: number; set_cooperator: 0 | 1 }>('transfer');

/** 导出: a background job of the list with its filters (.xlsx). */
export const useStartOrderExport = () =>
  useMutation({ mutationFn: (filters: Partial<OrderListQuery>) => http.post<{ jobId: string }>(`${BASE}/export`, filters) });
