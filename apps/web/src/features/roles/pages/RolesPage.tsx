import { PlusOutlined } from '@ant-design/icons';
import { DATA_SCOPE_LABEL, type Role } from '@crm/contracts';
import { Button, Card, Space, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteRole, useRoles } from '../api';
import { RoleDrawer, type RoleDrawerTarget } from '../components/RoleDrawer';

const SYSTEM_HINT = '系统内置角色拥有全部权限，不能修改或删除';

/** /account/rolemanager: roles with their data scope, menu and action permissions. */
export const RolesPage = () => {
  const { data, isLoading } = useRoles();
  const remove = useDeleteRole();
  const confirmDelete = useConfirmDelete();
  const drawer = useModalTarget<RoleDrawerTarget>();

  const columns: TableColumnsType<Role> = [
    {
      title: '角色名称',
      dataIndex: 'name',
      render: (name: string, role) => (
        <Space size={8}>
          <span>{name}</span>
          {role.isSystem === 1 && <Tag color="blue">系统内置</Tag>}
        </Space>
      ),
    },
    { title: '数据范围', dataIndex: 'dataScope', width: 160, render: (v: number) => DATA_SCOPE_LABEL[v] ?? '-' },
    { title: '员工数', dataIndex: 'staffNum', width: 100 },
    {
      title: '备注',
      dataIndex: 'remark',
      ellipsis: true,
      render: (v: string) => v || <Typography.Text type="secondary">-</Typography.Text>,
    },
    { title: '创建时间', dataIndex: 'createTime', width: 190 },
    {
      title: '操作',
      key: 'actions',
      width: 200,
      render: (_, role) => {
        const isSystem = role.isSystem === 1;
        return (
          <Space size={0}>
            {isSystem && (
              <Button type="link" size="small" onClick={() => drawer.open({ mode: 'view', role })}>
                查看
              </Button>
            )}
            <Tooltip title={isSystem ? SYSTEM_HINT : undefined}>
              <Button type="link" size="small" disabled={isSystem} onClick={() => drawer.open({ mode: 'edit', role })}>
                编辑
              </Button>
            </Tooltip>
            <Tooltip title={isSystem ? SYSTEM_HINT : undefined}>
              <Button
                type="link"
                size="small"
                danger
                disabled={isSystem}
                onClick={() => confirmDelete(() => remove.mutateAsync(role.cmArid))}
              >
                删除
              </Button>
            </Tooltip>
          </Space>
        );
      },
    },
  ];

  return (
    <Card
      title="角色管理"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => drawer.open({ mode: 'create' })}>
          新增角色
        </Button>
      }
    >
      <Table<Role>
        rowKey="cmArid"
        columns={columns}
        dataSource={data?.list}
        loading={isLoading}
        pagination={{ hideOnSinglePage: true, showTotal: (n) => `共 ${n} 条` }}
      />
      <RoleDrawer key={drawer.openKey} isOpen={drawer.isOpen} target={drawer.target} onClose={drawer.close} />
    </Card>
  );
};
