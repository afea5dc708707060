/** A short list of contracts (an order's, a customer's) that opens a contract's details. */
import type { ContractRow } from '@crm/contracts';
import { Empty, Table, Typography } from 'antd';
import { formatMoney } from '../../../components/money';
import { ContractStatusTag } from './ContractStatusTag';

type Props = { rows: ContractRow[] | undefined; isLoading: boolean; onOpen: (id: number) => void };

export const ContractsTable = ({ rows, isLoading, onOpen }: Props) =>
  rows && rows.length === 0 && !isLoading ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无合同" />
  ) : (
    <Table<ContractRow>
      size="small"
      rowKey="id"
      pagination={false}
      loading={isLoading}
      dataSource={rows}
      locale={{ emptyText: '暂无合同' }}
      columns={[
        {
          title: '合同编号',
          dataIndex: 'contract_no',
          render: (v: string, r) => <Typography.Link onClick={() => onOpen(r.id)}>{v}</Typography.Link>,
        },
        { title: '合同名称', dataIndex: 'title', ellipsis: true },
        { title: '金额(元)', dataIndex: 'amount', align: 'right', width: 120, render: formatMoney },
        { title: '状态', dataIndex: 'status', width: 90, render: (v: number) => <ContractStatusTag status={v} /> },
        { title: '创建时间', dataIndex: 'created_at', width: 140, render: (v: string) => v.slice(0, 16) },
      ]}
    />
  );
