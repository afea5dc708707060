import { POOL_SET_TYPE, type Pool, type PoolRules, poolBody } from '@crm/contracts';
import { Alert, Divider, Form, Input, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { FormModal } from '../../../components/FormModal';
import { zodRule } from '../../../components/formRules';
import { useLabelOptions } from '../../../components/TemplateForm/useLabelOptions';
import { useStageOptions } from '../../customers/api';
import { labelSelectOptions } from '../../customers/components/listFilters';
import { useDepartmentTree } from '../../departments/api';
import { useCreatePool, useEditPool } from '../api';

export type PoolFormTarget = { mode: 'create'; sortNum: number } | { mode: 'edit'; pool: Pool };

type Values = {
  name: string;
  dmType: 1 | 2;
  useCmDids: number[];
  sortNum: number;
  isRecycleOn: boolean;
  noFollowDays: number;
  noDealDays: number;
  logic: 'and' | 'or';
  cmNids: number[];
  cmClids: number[];
  dailyMax: number;
  cooldownDays: number;
};

const EMPTY_RULES: PoolRules = {
  recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
  claim: { dailyMax: 0, cooldownDays: 0 },
};

const daysInput = (label: string) => (
  <InputNumber min={0} max={3650} precision={0} addonAfter="天" style={{ width: 160 }} aria-label={label} />
);

/** Add or edit a shared pool: who may use it, when private customers return to it, and how they may be claimed. */
export const PoolFormModal = ({
  isOpen,
  target,
  onClose,
}: {
  isOpen: boolean;
  target: PoolFormTarget | null;
  onClose: () => void;
}) => {
  const [form] = Form.useForm<Values>();
  const create = useCreatePool();
  const edit = useEditPool();
  const departments = useDepartmentTree();
  const stages = useStageOptions();
  const labels = useLabelOptions();
  const isRecycleOn = Form.useWatch('isRecycleOn', form);
  const dmType = Form.useWatch('dmType', form);

  const pool = target?.mode === 'edit' ? target.pool : null;
  const rules = pool?.useRules ?? EMPTY_RULES;
  const initialValues: Values = {
    name: pool?.name ?? '',
    dmType: pool?.dmType === 2 ? 2 : 1,
    useCmDids: pool?.useCmDids ?? [],
    sortNum: pool?.sortNum ?? (target?.mode === 'create' ? target.sortNum : 0),
    isRecycleOn: rules.recycle.isOn === 1,
    noFollowDays: rules.recycle.noFollowDays,
    noDealDays: rules.recycle.noDealDays,
    logic: rules.recycle.logic,
    cmNids: rules.recycle.cmNids,
    cmClids: rules.recycle.cmClids,
    dailyMax: rules.claim.dailyMax,
    cooldownDays: rules.claim.cooldownDays,
  };

  const onSubmit = async (v: Values) => {
    const body = {
      name: v.name.trim(),
      dmType: v.dmType,
      useCmDids: v.useCmDids ?? [],
      sortNum: v.sortNum ?? 0,
      useRules: {
        recycle: {
          isOn: v.isRecycleOn ? 1 : 0,
          noFollowDays: v.noFollowDays ?? 0,
          noDealDays: v.noDealDays ?? 0,
          logic: v.logic,
          cmNids: v.cmNids ?? [],
          cmClids: v.cmClids ?? [],
        },
        claim: { dailyMax: v.dailyMax ?? 0, cooldownDays: v.cooldownDays ?? 0 },
      } satisfies PoolRules,
    };
    if (pool) {
      await edit.mutateAsync({ ...body, cmHsid: pool.cmHsid, actionState: pool.actionState === 1 ? 1 : 0 });
      return '操作成功';
    }
    await create.mutateAsync(body);
    return '添加成功';
  };

  return (
    <FormModal
      open={isOpen && target !== null}
      title={pool ? '编辑公海' : '添加公海'}
      name="poolForm"
      form={form}
      initialValues={initialValues}
      isPending={create.isPending || edit.isPending}
      onSubmit={onSubmit}
      onClose={onClose}
      width={680}
    >
      <Form.Item
        label="公海名称"
        name="name"
        validateFirst
        rules={[{ required: true, whitespace: true, message: '请输入公海名称' }, zodRule(poolBody.shape.name)]}
      >
        <Input placeholder="如：公共公海、一部公海" maxLength={20} showCount />
      </Form.Item>
      <Form.Item label="设置方式" name="dmType" extra="标签设置：只回收带有所选标签的客户">
        <Radio.Group
          options={[
            { value: POOL_SET_TYPE.uniform, label: '统一设置' },
            { value: POOL_SET_TYPE.byTag, label: '标签设置' },
          ]}
        />
      </Form.Item>
      <Form.Item
        label="可使用部门"
        name="useCmDids"
        extra="这些部门的员工可以把客户丢入该公海、查看和领取其中的客户；不选表示所有部门"
      >
        <DepartmentTreeSelect departments={departments.data ?? []} multiple placeholder="所有部门" />
      </Form.Item>
      <Form.Item label="排序" name="sortNum">
        <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
      </Form.Item>

      <Divider titlePlacement="start">自动回收</Divider>
      <Form.Item label="开启自动回收" name="isRecycleOn" valuePropName="checked">
        <Switch checkedChildren="开" unCheckedChildren="关" />
      </Form.Item>
      {isRecycleOn && (
        <>
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            可使用部门员工的私有客户满足条件后自动回到本公海（有待审核订单的客户不回收）。填 0 表示不按该条件回收。
          </Typography.Paragraph>
          <Space size={24} wrap>
            <Form.Item label="未跟进超过" name="noFollowDays">
              {daysInput('未跟进天数')}
            </Form.Item>
            <Form.Item label="条件关系" name="logic">
              <Radio.Group
                options={[
                  { value: 'or', label: '满足任一' },
                  { value: 'and', label: '同时满足' },
                ]}
              />
            </Form.Item>
            <Form.Item label="未成交超过" name="noDealDays">
              {daysInput('未成交天数')}
            </Form.Item>
          </Space>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="成交指审核通过的订单；订单功能上线前，未成交天数从客户领取或分配之日算起。"
          />
          <Form.Item label="仅回收以下阶段" name="cmNids" extra="不选表示所有阶段">
            <Select
              mode="multiple"
              allowClear
              placeholder="所有阶段"
              options={(stages.data ?? []).map((s) => ({ value: s.cmNid, label: s.name }))}
            />
          </Form.Item>
          <Form.Item
            label="仅回收带以下标签"
            name="cmClids"
            extra={dmType === 2 ? '标签设置的公海必须选择标签' : '不选表示不限标签'}
            rules={dmType === 2 ? [{ required: true, type: 'array', min: 1, message: '标签设置的公海请选择回收的标签' }] : []}
          >
            <Select mode="multiple" allowClear placeholder="不限标签" options={labelSelectOptions(labels.data ?? [])} />
          </Form.Item>
        </>
      )}

      <Divider titlePlacement="start">领取规则</Divider>
      <Space size={24} wrap>
        <Form.Item label="每人每天最多领取" name="dailyMax" extra="0 表示不限制">
          <InputNumber min={0} max={100000} precision={0} addonAfter="个" style={{ width: 160 }} />
        </Form.Item>
        <Form.Item label="原负责人禁止领取" name="cooldownDays" extra="客户进入公海后，原负责人在此期间不能领回">
          {daysInput('禁止原负责人领取天数')}
        </Form.Item>
      </Space>
    </FormModal>
  );
};
