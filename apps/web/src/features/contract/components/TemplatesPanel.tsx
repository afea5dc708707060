import { PlusOutlined } from '@ant-design/icons';
import type { ContractTemplate } from '@crm/contracts';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useContractTemplates } from '../api';
import { TemplateEditor, templateKindLabel } from './TemplateEditor';

/** 合同模板: every template (disabled ones too), 新建 and 编辑 in the editor with its A4 preview. */
export const TemplatesPanel = () => {
  const templates = useContractTemplates(1);
  const [editing, setEditing] = useState<ContractTemplate | 'new' | null>(null);
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建模板
        </Button>
        <Typography.Text type="secondary">生成合同时选择模板，客户、金额、产品等字段由订单自动填入。</Typography.Text>
      </Space>
      <Table<ContractTemplate>
        rowKey="id"
        loading={templates.isFetching}
        dataSource={templates.data?.list}
        pagination={false}
        locale={{ emptyText: '暂无合同模板，点击“新建模板”添加' }}
        columns={[
          { title: '模板名称', dataIndex: 'name', ellipsis: true },
          { title: '类型', dataIndex: 'kind', width: 110, render: templateKindLabel },
          {
            title: '字段',
            key: 'fields',
            render: (_, t) => (
              <Space size={[4, 4]} wrap>
                {t.fields.slice(0, 8).map((f) => (
                  <Tag key={f.key}>{f.label}</Tag>
                ))}
                {t.fields.length > 8 && <Tag>+{t.fields.length - 8}</Tag>}
              </Space>
            ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 80,
            render: (v: number) => (v === 0 ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>),
          },
          { title: '更新时间', dataIndex: 'updated_at', width: 160 },
          {
            title: '操作',
            key: 'op',
            width: 80,
            render: (_, t) => <Typography.Link onClick={() => setEditing(t)}>编辑</Typography.Link>,
          },
        ]}
      />
      <TemplateEditor template={editing} onClose={() => setEditing(null)} />
    </>
  );
};
