import { PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { POOL_SET_TYPE_LABEL, type Pool } from '@crm/contracts';
import { App, Button, Card, Empty, Space, Switch, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { hasPermission, useSession } from '../../../stores/session';
import { useDeletePool, useEditPool, usePools, useRunRecycle } from '../api';
import { PoolFormModal, type PoolFormTarget } from '../components/PoolFormModal';

const rulesText = (p: Pool) => {
  const r = p.useRules.recycle;
  const parts: string[] = [];
  if (r.isOn === 1) {
    const conds = [
      r.noFollowDays > 0 ? `${r.noFollowDays}天未跟进` : '',
      r.noDealDays > 0 ? `${r.noDealDays}天未成交` : '',
    ].filter(Boolean);
    parts.push(`回收：${conds.join(r.logic === 'and' ? '且' : '或')}`);
  } else parts.push('不自动回收');
  const c = p.useRules.claim;
  parts.push(`每人每天${c.dailyMax > 0 ? `最多领取${c.dailyMax}个` : '领取不限制'}`);
  if (c.cooldownDays > 0) parts.push(`原负责人${c.cooldownDays}天内不能领回`);
  return parts;
};

/** /set/highseas: the shared pools, who may use each, and their recycle and claim rules. */
export const PoolsPage = () => {
  const { message } = App.useApp();
  const { data, isLoading } = usePools();
  const edit = useEditPool();
  const remove = useDeletePool();
  const recycle = useRunRecycle();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<PoolFormTarget>();
  const canRecycle = hasPermission(
    useSession((s) => s.permissions),
    'frontend/customer/recycle',
  );
  const pools = data?.list ?? [];

  const toggleState = async (p: Pool, isEnabled: boolean) => {
    try {
      await edit.mutateAsync({
        cmHsid: p.cmHsid,
        name: p.name,
        dmType: p.dmType === 2 ? 2 : 1,
        useCmDids: p.useCmDids,
        useRules: p.useRules,
        sortNum: p.sortNum,
        actionState: isEnabled ? 0 : 1,
      });
    } catch {
      return;
    }
    message.success('操作成功');
  };
  const add = () =>
    formModal.open({ mode: 'create', sortNum: Math.min(9999, pools.reduce((m, p) => Math.max(m, p.sortNum), 0) + 1) });
  const runRecycle = async () => {
    try {
      const r = await recycle.mutateAsync();
      message.success(`回收完成，共回收${r.recycled}个客户`);
    } catch {
      // the http client has shown the message
    }
  };

  const columns: TableColumnsType<Pool> = [
    { title: '公海名称', dataIndex: 'name', width: 160 },
    { title: '设置方式', dataIndex: 'dmType', width: 100, render: (v: number) => POOL_SET_TYPE_LABEL[v] ?? '-' },
    {
      title: '可使用部门',
      dataIndex: 'useCmDidNames',
      render: (names: string[]) => (names.length === 0 ? <Tag>所有部门</Tag> : names.map((n) => <Tag key={n}>{n}</Tag>)),
    },
    {
      title: '规则',
      key: 'rules',
      render: (_, p) => (
        <Space orientation="vertical" size={0}>
          {rulesText(p).map((t) => (
            <Typography.Text key={t} type="secondary">
              {t}
            </Typography.Text>
          ))}
        </Space>
      ),
    },
    { title: '客户数', dataIndex: 'customerNum', width: 90 },
    { title: '排序', dataIndex: 'sortNum', width: 80 },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 100,
      render: (v: number, p) => (
        <Switch
          aria-label={`${p.name}状态`}
          checked={v === 0}
          checkedChildren="可用"
          unCheckedChildren="禁用"
          loading={edit.isPending && edit.variables?.cmHsid === p.cmHsid}
          onChange={(isEnabled) => toggleState(p, isEnabled)}
        />
      ),
    },
    {
      title: '操作',
      key: 'actions',
      width: 130,
      render: (_, p) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', pool: p })}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync(p.cmHsid))}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title="公海设置"
      extra={
        <Space>
          {canRecycle && (
            <Button icon={<SyncOutlined />} loading={recycle.isPending} onClick={runRecycle}>
              立即回收
            </Button>
          )}
          <Button type="primary" icon={<PlusOutlined />} onClick={add}>
            添加公海
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        员工只能使用本部门可用的公海。开启自动回收后，系统每5分钟检查一次，把满足条件的客户收回公海（跟进记录显示「系统回收」），回收前按策略设置的提醒天数在工作台提示负责人。
      </Typography.Paragraph>
      <Table<Pool>
        rowKey="cmHsid"
        columns={columns}
        dataSource={pools}
        loading={isLoading}
        pagination={false}
        locale={{
          emptyText: isLoading ? (
            ' '
          ) : (
            <Empty description="还没有公海。添加公海后，员工才能把客户丢入公海或从公海领取客户">
              <Button type="primary" icon={<PlusOutlined />} onClick={add}>
                添加公海
              </Button>
            </Empty>
          ),
        }}
      />
      <PoolFormModal key={formModal.openKey} isOpen={formModal.isOpen} target={formModal.target} onClose={formModal.close} />
    </Card>
  );
};
