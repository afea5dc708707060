import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import type { LeadOwnList } from '@crm/contracts';
import { App, Button, Empty, Flex, Popconfirm, Result, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { useDeleteOwnList, useOwnLists } from '../settings-api';
import { OwnListImportModal } from './OwnListImportModal';

/** 拓客设置 › 自有名单: the company's imported lists, 导入名单 and 删除. */
export const OwnListsPanel = () => {
  const { message } = App.useApp();
  const paging = useTablePaging();
  const lists = useOwnLists({ page: paging.page, limit: paging.limit });
  const remove = useDeleteOwnList();
  const [isImporting, setImporting] = useState(false);

  const del = async (row: LeadOwnList) => {
    try {
      await remove.mutateAsync(row.id);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('删除成功');
    // the last row of a later page gone: show the page before
    if (paging.page > 1 && (lists.data?.list.length ?? 0) <= 1) paging.setPage(paging.page - 1);
  };

  return (
    <>
      <Flex justify="space-between" align="center" gap={16} wrap style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">
          导入本公司自有的企业名单，查企业、找线索、地图搜索和批量查企业都会查到这些企业（其他公司看不到）。
        </Typography.Text>
        <Button type="primary" icon={<UploadOutlined />} onClick={() => setImporting(true)}>
          导入名单
        </Button>
      </Flex>
      {lists.isError ? (
        <Result
          status="error"
          title="无法获取自有名单"
          subTitle="请稍后重试"
          extra={<Button onClick={() => lists.refetch()}>重试</Button>}
        />
      ) : (
        <Table<LeadOwnList>
          rowKey="id"
          size="middle"
          loading={lists.isFetching}
          dataSource={lists.data?.list ?? []}
          pagination={paging.pagination(lists.data?.count ?? 0)}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有导入名单，点击「导入名单」上传 .xlsx" />,
          }}
          columns={[
            { title: '名单名称', dataIndex: 'name', ellipsis: true },
            { title: '企业数', dataIndex: 'rowCount', width: 120, align: 'right' },
            { title: '导入人', dataIndex: 'staffName', width: 140, ellipsis: true, render: (v: string) => v || '-' },
            { title: '导入时间', dataIndex: 'createTime', width: 200 },
            {
              title: '操作',
              key: 'actions',
              width: 120,
              render: (_, row) => (
                <Popconfirm
                  title="删除提示"
                  description={`确定要删除名单「${row.name}」吗？名单中的企业将从企业库中移除。`}
                  okText="确定"
                  cancelText="取消"
                  okButtonProps={{ danger: true }}
                  onConfirm={() => del(row)}
                >
                  <Button type="link" danger size="small" icon={<DeleteOutlined />}>
                    删除
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
      <OwnListImportModal open={isImporting} onClose={() => setImporting(false)} />
    </>
  );
};
