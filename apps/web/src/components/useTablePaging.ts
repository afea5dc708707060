import { LIMITS } from '@crm/contracts';
import type { TablePaginationConfig } from 'antd';
import { useCallback, useState } from 'react';

/** Page and page size of a server-paged table with the default paginator of SPEC §9. */
export const useTablePaging = (defaultLimit = 10) => {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(defaultLimit);
  const resetPage = useCallback(() => setPage(1), []);
  /** `isEstimated`: the server sent the planner's estimate of a very large result (约 N 条). */
  const pagination = (total: number, isEstimated = false): TablePaginationConfig => ({
    current: page,
    pageSize: limit,
    total,
    showSizeChanger: true,
    pageSizeOptions: [...LIMITS.pageSizeOptions],
    showTotal: (n) => (isEstimated ? `约 ${n} 条` : `共 ${n} 条`),
    onChange: (p, size) => {
      setPage(size === limit ? p : 1);
      setLimit(size);
    },
  });
  return { page, limit, setPage, resetPage, pagination };
};
