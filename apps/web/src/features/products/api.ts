import type {
  CategoryCreateBody,
  CategoryEditBody,
  ListData,
  Product,
  ProductBody,
  ProductCategory,
  ProductEditBody,
} from '@crm/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../api/http';

const BASE = '/api/frontend/product';

export type ProductListParams = { page: number; limit: number; keyword?: string; pcid?: number; status?: number };
export type ProductImportResult = { added: number; failed: { row: number; reason: string }[] };

export const productKeys = {
  all: ['products'] as const,
  list: (p: ProductListParams) => [...productKeys.all, 'list', p] as const,
  tree: () => [...productKeys.all, 'tree'] as const,
};

/** The catalogue, paged (the order dialog asks for status 1 only). */
export const useProductList = (params: ProductListParams, enabled = true) =>
  useQuery({
    queryKey: productKeys.list(params),
    queryFn: () => http.get<ListData<Product>>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
    enabled,
  });

export const useCategoryTree = () =>
  useQuery({
    queryKey: productKeys.tree(),
    queryFn: async () => (await http.get<{ list: ProductCategory[] }>(`${BASE}/categorytree`)).list,
    staleTime: 60_000,
  });

const useInvalidate = () => {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: productKeys.all });
};

/** A catalogue write: every product list and the tree are fetched again after it. */
const usePost = <B>(path: string) => {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (body: B) => http.post<unknown>(`${BASE}/${path}`, body), onSuccess: invalidate });
};

export const useCreateProduct = () => usePost<ProductBody>('create');
export const useEditProduct = () => usePost<ProductEditBody>('edit');
export const useDeleteProducts = () => usePost<{ ids: number[] }>('del');
export const useSetProductStatus = () => usePost<{ ids: number[]; status: 0 | 1 }>('status');
export const useCreateCategory = () => usePost<CategoryCreateBody>('categorycreate');
export const useEditCategory = () => usePost<CategoryEditBody>('categoryedit');
export const useDeleteCategory = () => usePost<{ id: number }>('categorydel');

export const useImportProducts = () => {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (fileId: number) => http.post<ProductImportResult>(`${BASE}/import`, { fileId }),
    onSuccess: invalidate,
  });
};
