import { LIMITS } from '@crm/contracts';
import type { TablePaginationConfig } from 'antd';
import { useCallback, useState } from 'react';

/** Page and page size of a server-paged table with the default paginator of SPEC §9. */
export const useTablePaging = (defaultLimit = 10) => {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState(defaultLimit);
  const resetPage = useCallback(() => setPage(1), []);
  const pagination = (total: number): TablePaginationConfig => ({
    current: page,
    pageSize: limit,
    total,
    showSizeChanger: true,
    pageSizeOptions: [...LIMITS.pageSizeOptions],
    showTotal: (n) => `共 ${n} 条`,
    onChange: (p, size) => {
      setPage(size === limit ? p : 1);
      setLimit(size);
    },
  });
  return { page, limit, setPage, resetPage, pagination };
};
