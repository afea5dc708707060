import { PhoneOutlined } from '@ant-design/icons';
import type { LeadCompany } from '@crm/contracts';
import {
  Empty,
  Table,
  type TableColumnsType,
  type TableColumnType,
  type TablePaginationConfig,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { CompanyStatusTag } from './CompanyStatusTag';
import { capitalText } from './leadText';

export type LeadSort = { orderBy: 'foundedOn' | 'capital'; orderSort: 'asc' | 'desc' };

type Props = {
  rows: LeadCompany[];
  loading: boolean;
  pagination: TablePaginationConfig | false;
  onOpen: (row: LeadCompany) => void;
  /** checked rows (omit: no selection column) */
  selected?: number[];
  onSelect?: (ids: number[], rows: LeadCompany[]) => void;
  /** the server-side sort (omit: not sortable) */
  sort?: LeadSort;
  onSort?: (sort: LeadSort) => void;
  empty?: string;
};

/** The companies of a search: name (opens the card), status, registry facts, whether it has phones. */
export const LeadTable = ({ rows, loading, pagination, onOpen, selected, onSelect, sort, onSort, empty = '暂无数据' }: Props) => {
  const sorted = (key: LeadSort['orderBy']): Pick<TableColumnType<LeadCompany>, 'sorter' | 'sortOrder'> =>
    sort ? { sorter: true, sortOrder: sort.orderBy === key ? (sort.orderSort === 'asc' ? 'ascend' : 'descend') : null } : {};
  const columns: TableColumnsType<LeadCompany> = [
    {
      title: '企业名称',
      dataIndex: 'name',
      ellipsis: { showTitle: false },
      render: (name: string, row) => (
        <Tooltip title={name} placement="topLeft">
          <Typography.Link onClick={() => onOpen(row)}>{name}</Typography.Link>
          {row.isOwn && (
            <Tag color="blue" style={{ marginInlineStart: 6 }}>
              自有
            </Tag>
          )}
        </Tooltip>
      ),
    },
    { title: '状态', dataIndex: 'status', width: 72, render: (s: number) => <CompanyStatusTag status={s} /> },
    { title: '法定代表人', dataIndex: 'legalRep', width: 100, ellipsis: true },
    { title: '所在地区', dataIndex: 'regionLabel', width: 150, ellipsis: true },
    { title: '行业', dataIndex: 'industryLabel', width: 150, ellipsis: true },
    {
      title: '注册资本',
      key: 'capital',
      dataIndex: 'capitalWan',
      width: 116,
      align: 'right',
      render: capitalText,
      ...sorted('capital'),
    },
    { title: '成立日期', key: 'foundedOn', dataIndex: 'foundedOn', width: 112, ...sorted('foundedOn') },
    {
      title: '电话',
      key: 'phones',
      width: 64,
      align: 'center',
      render: (_: unknown, row) =>
        row.phones.length > 0 ? (
          <Tooltip title={`${row.phones.length} 个号码${row.hasMobile ? '（含手机）' : ''}`}>
            <PhoneOutlined style={{ color: row.hasMobile ? '#52c41a' : '#1677ff' }} />
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">-</Typography.Text>
        ),
    },
  ];

  const onChange: TableProps<LeadCompany>['onChange'] = (_, __, sorter, extra) => {
    if (extra.action !== 'sort' || Array.isArray(sorter) || !onSort) return;
    const key = sorter.columnKey as LeadSort['orderBy'];
    if (!sorter.order || (key !== 'capital' && key !== 'foundedOn')) onSort({ orderBy: 'foundedOn', orderSort: 'desc' });
    else onSort({ orderBy: key, orderSort: sorter.order === 'ascend' ? 'asc' : 'desc' });
  };

  return (
    <Table<LeadCompany>
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={rows}
      loading={loading}
      pagination={pagination}
      onChange={onChange}
      tableLayout="fixed"
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
      rowSelection={
        onSelect
          ? {
              selectedRowKeys: selected,
              preserveSelectedRowKeys: true,
              onChange: (keys, picked) => onSelect(keys as number[], picked),
            }
          : undefined
      }
    />
  );
};
