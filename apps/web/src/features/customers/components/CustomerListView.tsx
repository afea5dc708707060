import { DeleteOutlined, EditOutlined, PlusOutlined, TagsOutlined, UploadOutlined } from '@ant-design/icons';
import type { CustomerRow } from '@crm/contracts';
import { Button, Card, Empty, Space, Table, type TableColumnsType, type TableProps, Typography } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCustomerParts } from '../../../components/customer-parts/registry';
import { JobExportButton } from '../../../components/JobExportButton';
import { SearchBar } from '../../../components/SearchBar/SearchBar';
import type { SearchField, SearchValues } from '../../../components/SearchBar/types';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useTablePaging } from '../../../components/useTablePaging';
import { hasPermission, useSession } from '../../../stores/session';
import { type CustomerListKind, useCustomerList, useDeleteCustomers, useStartExport } from '../api';
import { BatchEditModal } from './BatchEditModal';
import { CustomerFormModal } from './CustomerFormModal';
import { type CustomerColumnKey, type CustomerSort, customerColumns } from './customerColumns';
import { CustomerDetailDrawer } from './detail/CustomerDetailDrawer';
import { ImportWizard } from './ImportWizard';
import { type CustomerFilterKey, toListFilters } from './listFilters';
import { SetTagsModal } from './SetTagsModal';
import { useCustomerSearchFields } from './useCustomerSearchFields';

type Props = {
  kind: CustomerListKind;
  title: string;
  /** The fixed filters that apply to this list. */
  filters: readonly CustomerFilterKey[];
  /** The columns that apply to this list (编辑 is always last). */
  columns: readonly CustomerColumnKey[];
  canImport?: boolean;
  /** Extra buttons of the batch-action bar, for the checked rows (批量领取, 分配); other features' come from the customer parts registry. */
  batchActions?: (selected: number[], clearSelection: () => void) => ReactNode;
  /**
   * The shared-pool page: no add, edit or batch edit; its own filters (pool, reason) and columns,
   * the row action instead of 编辑, and the drawer's seas view.
   */
  seas?: {
    extraFields: SearchField[];
    extraColumns: TableColumnsType<CustomerRow>;
    rowAction: (row: CustomerRow) => ReactNode;
  };
};

/** Page size of the customer lists (one of SPEC §9's default options 10/20/30/40). */
const PAGE_SIZE = 20;
type FormTarget = { mode: 'add' } | { mode: 'edit'; cmCtid: number };

/**
 * One customer list page: the search bar, batch actions on checked rows, the table and the
 * export / import jobs. The four list pages differ only by kind, filters and columns.
 */
export const CustomerListView = ({ kind, title, filters, columns, canImport = false, batchActions, seas }: Props) => {
  const parts = useCustomerParts();
  const permissions = useSession((s) => s.permissions);
  const canDelete = hasPermission(permissions, 'frontend/customer/del');
  const canExport = hasPermission(permissions, 'frontend/customer/export');
  const startExport = useStartExport(kind);
  const canImportHere = canImport && hasPermission(permissions, 'frontend/customer/import');

  const search = useCustomerSearchFields(filters);
  const [values, setValues] = useState<SearchValues>({});
  const [sort, setSort] = useState<CustomerSort>({});
  const paging = useTablePaging(PAGE_SIZE);
  const [selected, setSelected] = useState<number[]>([]);
  const listFilters = useMemo(() => {
    const base = toListFilters(values, search.searchControls);
    // The pool page's own filters (cmHsid, cmCdid) pass through as they are.
    const extra = Object.fromEntries(
      (seas?.extraFields ?? []).flatMap((f) => (values[f.name] === undefined ? [] : [[f.name, values[f.name]]])),
    );
    return { ...base, ...extra };
  }, [values, search.searchControls, seas]);
  const { data, isFetching } = useCustomerList(kind, { ...listFilters, ...sort, page: paging.page, limit: paging.limit });

  const remove = useDeleteCustomers();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<FormTarget>();
  const [isBatchEditOpen, setBatchEditOpen] = useState(false);
  const [isTagsOpen, setTagsOpen] = useState(false);
  const [isImportOpen, setImportOpen] = useState(false);
  // The open customer lives in the URL (?detail=ID), so a detail can be linked and survives a reload.
  const [searchParams, setSearchParams] = useSearchParams();
  const detailId = Number(searchParams.get('detail')) || null;
  const openDetail = (cmCtid: number | null) =>
    setSearchParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (cmCtid === null) next.delete('detail');
        else next.set('detail', String(cmCtid));
        return next;
      },
      { replace: cmCtid === null },
    );

  // After deleting the last rows of the last page, step back to the page that still exists.
  const { setPage } = paging;
  useEffect(() => {
    if (data && data.count > 0 && data.list.length === 0) setPage(Math.max(1, Math.ceil(data.count / paging.limit)));
  }, [data, paging.limit, setPage]);

  const onSearch = (next: SearchValues) => {
    setValues(next);
    setSelected([]);
    paging.resetPage();
  };

  const onTableChange: TableProps<CustomerRow>['onChange'] = (_, __, sorter, extra) => {
    if (extra.action !== 'sort' || Array.isArray(sorter)) return;
    const field = sorter.columnKey as CustomerSort['orderParams'];
    setSort(sorter.order && field ? { orderParams: field, orderSort: sorter.order === 'ascend' ? 'asc' : 'desc' } : {});
    paging.resetPage();
  };

  const baseColumns = customerColumns({
    keys: columns,
    controls: search.columnControls,
    sort,
    onEdit: (row) => formModal.open({ mode: 'edit', cmCtid: row.cmCtid }),
    onOpen: (row) => openDetail(row.cmCtid),
  });
  const tableColumns: TableColumnsType<CustomerRow> = seas
    ? [
        ...baseColumns.slice(0, -1),
        ...seas.extraColumns,
        { ...baseColumns[baseColumns.length - 1], render: (_: unknown, row: CustomerRow) => seas.rowAction(row) },
      ]
    : baseColumns;
  const scrollX = tableColumns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : 120), 48);

  const count = data?.count ?? 0;
  const pagination = {
    ...paging.pagination(count),
    // The server stops counting at 100000 (isCountCapped) and, for a slow filter, sends the planner's estimate.
    showTotal: (n: number) => (data?.isCountCapped ? '共 100000+ 条' : data?.isCountEstimated ? `约 ${n} 条` : `共 ${n} 条`),
  };
  const hasSelection = selected.length > 0;

  return (
    <Card title={title}>
      <SearchBar
        name={`customerSearch-${kind}`}
        fields={seas ? [...search.fields, ...seas.extraFields] : search.fields}
        dynamicFields={search.dynamicFields}
        onSearch={onSearch}
        extra={
          <>
            {canExport && <JobExportButton title="导出客户" start={startExport} input={{ ...listFilters, ...sort }} />}
            {canImportHere && (
              <Button icon={<UploadOutlined />} onClick={() => setImportOpen(true)}>
                导入
              </Button>
            )}
          </>
        }
        addButton={
          seas ? undefined : (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'add' })}>
              新增客户
            </Button>
          )
        }
      />
      <Space style={{ margin: '16px 0 12px' }} wrap>
        {parts?.batchActions.map(({ key, Actions }) => (
          <Actions key={key} kind={kind} selected={selected} clearSelection={() => setSelected([])} />
        ))}
        {batchActions?.(selected, () => setSelected([]))}
        {!seas && (
          <Button icon={<EditOutlined />} disabled={!hasSelection} onClick={() => setBatchEditOpen(true)}>
            批量修改
          </Button>
        )}
        {search.hasLabels && !seas && (
          <Button icon={<TagsOutlined />} disabled={!hasSelection} onClick={() => setTagsOpen(true)}>
            设置标签
          </Button>
        )}
        {canDelete && (
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={!hasSelection}
            onClick={() =>
              confirmDelete(async () => {
                await remove.mutateAsync(selected);
                setSelected([]);
              })
            }
          >
            删除
          </Button>
        )}
        {hasSelection && (
          <Typography.Text type="secondary">
            已选择 {selected.length} 个客户
            <Button type="link" size="small" onClick={() => setSelected([])}>
              取消选择
            </Button>
          </Typography.Text>
        )}
      </Space>
      <Table<CustomerRow>
        rowKey="cmCtid"
        columns={tableColumns}
        dataSource={data?.list}
        loading={isFetching}
        scroll={{ x: scrollX }}
        onChange={onTableChange}
        pagination={pagination}
        onRow={(row) => ({
          // A click on the row opens the detail, except on its checkbox, buttons and links.
          onClick: (e) => {
            if ((e.target as HTMLElement).closest('button, a, input, .ant-checkbox-wrapper, .ant-table-selection-column')) return;
            openDetail(row.cmCtid);
          },
          style: { cursor: 'pointer' },
        })}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          onChange: (keys) => setSelected(keys as number[]),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无客户" /> }}
      />
      <CustomerFormModal
        key={formModal.openKey}
        open={formModal.isOpen}
        mode={formModal.target?.mode ?? 'add'}
        cmCtid={formModal.target?.mode === 'edit' ? formModal.target.cmCtid : undefined}
        onClose={formModal.close}
      />
      <BatchEditModal
        open={isBatchEditOpen}
        cmCtids={selected}
        onClose={() => setBatchEditOpen(false)}
        onDone={() => setSelected([])}
      />
      {search.hasLabels && (
        <SetTagsModal
          open={isTagsOpen}
          cmCtids={selected}
          labelOptions={search.labelOptions}
          onClose={() => setTagsOpen(false)}
          onDone={() => setSelected([])}
        />
      )}
      {canImportHere && <ImportWizard open={isImportOpen} onClose={() => setImportOpen(false)} />}
      <CustomerDetailDrawer cmCtid={detailId} onClose={() => openDetail(null)} view={seas ? 'seas' : 'private'} />
    </Card>
  );
};
