import { DATA_SCOPE, DATA_SCOPE_LABEL, type Role } from '@crm/contracts';
import { App, Button, Checkbox, Drawer, Form, Input, Radio, Skeleton, Space, Typography } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCreateRole, useEditRole, useRoleMenus } from '../api';
import { MenuPermissionTree } from './MenuPermissionTree';

/** A new role, an existing one to edit, or the built-in role shown read-only. */
export type RoleDrawerTarget = { mode: 'create' } | { mode: 'edit' | 'view'; role: Role };

type Values = { name: string; remark: string; dataScope: 1 | 2 | 3 | 4; menuIds: number[]; actions: string[] };

type Props = { isOpen: boolean; target: RoleDrawerTarget | null; onClose: () => void };

const SCOPE_OPTIONS = Object.entries(DATA_SCOPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));
const TITLES = { create: '新增角色', edit: '编辑角色', view: '查看角色' } as const;

export const RoleDrawer = ({ isOpen, target, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const menus = useRoleMenus(isOpen);
  const create = useCreateRole();
  const edit = useEditRole();
  const isPending = create.isPending || edit.isPending;
  const isReadOnly = target?.mode === 'view';

  const initialValues: Values =
    target && target.mode !== 'create'
      ? {
          name: target.role.name,
          remark: target.role.remark,
          dataScope: target.role.dataScope as Values['dataScope'],
          menuIds: target.role.menuIds,
          actions: target.role.actions,
        }
      : { name: '', remark: '', dataScope: DATA_SCOPE.own, menuIds: [], actions: [] };

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !target || target.mode === 'view') return;
    try {
      if (target.mode === 'edit') await edit.mutateAsync({ ...values, cmArid: target.role.cmArid });
      else await create.mutateAsync(values);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success(target.mode === 'edit' ? '保存成功' : '添加成功');
    onClose();
  });

  return (
    <Drawer
      open={isOpen}
      title={target ? TITLES[target.mode] : ''}
      size={760}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Space style={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{isReadOnly ? '关闭' : '取消'}</Button>
          {!isReadOnly && (
            <Button type="primary" onClick={submit} loading={isPending} disabled={isLocked && !isPending}>
              确定
            </Button>
          )}
        </Space>
      }
    >
      {!menus.data ? (
        // On a failed load the http client has shown why; keep the drawer usable to close.
        <Skeleton active={menus.isLoading} paragraph={{ rows: 8 }} />
      ) : (
        <Form name="roleForm" form={form} layout="vertical" initialValues={initialValues} preserve={false} disabled={isReadOnly}>
          <Form.Item
            label="角色名称"
            name="name"
            rules={[
              { required: true, whitespace: true, message: '请输入角色名称' },
              { max: 20, message: '角色名称最多20个字符' },
            ]}
          >
            <Input placeholder="请输入角色名称" maxLength={20} showCount />
          </Form.Item>
          <Form.Item label="备注" name="remark" rules={[{ max: 100, message: '备注最多100个字符' }]}>
            <Input.TextArea placeholder="请输入备注" maxLength={100} showCount rows={2} />
          </Form.Item>
          <Form.Item
            label="数据范围"
            name="dataScope"
            rules={[{ required: true, message: '请选择数据范围' }]}
            extra="决定该角色能看到哪些员工的客户、通话与日志数据"
          >
            <Radio.Group options={SCOPE_OPTIONS} />
          </Form.Item>
          <Form.Item label="菜单权限">
            <div style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '8px 12px' }}>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
                勾选上级菜单即包含其全部下级菜单
              </Typography.Paragraph>
              <Form.Item name="menuIds" noStyle>
                <MenuPermissionTree applications={menus.data.applications} disabled={isReadOnly} />
              </Form.Item>
            </div>
          </Form.Item>
          <Form.Item label="操作权限" name="actions">
            <Checkbox.Group options={menus.data.actions.map((a) => ({ label: a.name, value: a.key }))} />
          </Form.Item>
        </Form>
      )}
    </Drawer>
  );
};
