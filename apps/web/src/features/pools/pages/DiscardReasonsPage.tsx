import { PlusOutlined } from '@ant-design/icons';
import { type DiscardReason, discardReasonBody } from '@crm/contracts';
import {
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  InputNumber,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useCreateReason, useDeleteReason, useDiscardReasons, useEditReason } from '../api';

type Target = { mode: 'create'; sortNum: number } | { mode: 'edit'; reason: DiscardReason };
type Values = { name: string; sortNum: number };

const ReasonFormModal = ({ isOpen, target, onClose }: { isOpen: boolean; target: Target | null; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateReason();
  const edit = useEditReason();
  const initialValues: Values =
    target?.mode === 'edit'
      ? { name: target.reason.name, sortNum: target.reason.sortNum }
      : { name: '', sortNum: target?.sortNum ?? 0 };
  const onSubmit = async (values: Values) => {
    const body = { name: values.name.trim(), sortNum: values.sortNum ?? 0 };
    if (target?.mode === 'edit') {
      await edit.mutateAsync({ ...body, cmCdid: target.reason.cmCdid, actionState: target.reason.actionState === 1 ? 1 : 0 });
      return '操作成功';
    }
    await create.mutateAsync(body);
    return '添加成功';
  };
  return (
    <FormModal
      open={isOpen && target !== null}
      title={target?.mode === 'edit' ? '编辑丢弃理由' : '添加丢弃理由'}
      name="discardReasonForm"
      form={form}
      initialValues={initialValues}
      isPending={create.isPending || edit.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Form.Item
        label="丢弃理由"
        name="name"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入丢弃理由' }, zodRule(discardReasonBody.shape.name)]}
      >
        <Input placeholder="如：客户无意向、号码无效" maxLength={30} showCount />
      </Form.Item>
      <Form.Item label="排序" name="sortNum" extra="数字越小越靠前，决定丢弃弹窗中理由的顺序">
        <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </FormModal>
  );
};

/** /set/discard: the reasons offered when a customer is thrown into a shared pool. */
export const DiscardReasonsPage = () => {
  const { message } = App.useApp();
  const { data, isLoading } = useDiscardReasons();
  const edit = useEditReason();
  const remove = useDeleteReason();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<Target>();
  const reasons = data?.list ?? [];

  const toggleState = async (r: DiscardReason, isEnabled: boolean) => {
    try {
      await edit.mutateAsync({ cmCdid: r.cmCdid, name: r.name, sortNum: r.sortNum, actionState: isEnabled ? 0 : 1 });
    } catch {
      return;
    }
    message.success('操作成功');
  };
  const add = () =>
    formModal.open({ mode: 'create', sortNum: Math.min(9999, reasons.reduce((m, r) => Math.max(m, r.sortNum), 0) + 1) });

  const columns: TableColumnsType<DiscardReason> = [
    { title: '丢弃理由', dataIndex: 'name' },
    { title: '排序', dataIndex: 'sortNum', width: 100 },
    {
      title: '状态',
      dataIndex: 'actionState',
      width: 110,
      render: (v: number, r) => (
        <Switch
          aria-label={`${r.name}状态`}
          checked={v === 0}
          checkedChildren="可用"
          unCheckedChildren="禁用"
          loading={edit.isPending && edit.variables?.cmCdid === r.cmCdid}
          onChange={(isEnabled) => toggleState(r, isEnabled)}
        />
      ),
    },
    { title: '创建时间', dataIndex: 'createTime', width: 190 },
    {
      title: '操作',
      key: 'actions',
      width: 140,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', reason: r })}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync(r.cmCdid))}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title="丢弃理由"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={add}>
          添加理由
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">
        员工把客户丢入公海时从这里选择理由（也可选择「其他」并填写30字以内的说明）。禁用的理由不再出现在丢弃弹窗中；已丢弃客户保留当时的理由。
      </Typography.Paragraph>
      <Table<DiscardReason>
        rowKey="cmCdid"
        columns={columns}
        dataSource={reasons}
        loading={isLoading}
        pagination={false}
        locale={{
          emptyText: isLoading ? ' ' : <Empty description="还没有丢弃理由，员工丢弃客户时只能选择「其他」并手动填写" />,
        }}
      />
      <ReasonFormModal key={formModal.openKey} isOpen={formModal.isOpen} target={formModal.target} onClose={formModal.close} />
    </Card>
  );
};
