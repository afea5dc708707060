import { DATETIME_FORMAT, type DepartmentNode, type Role, type Staff, staffCreateBody } from '@crm/contracts';
import { Col, DatePicker, Form, Input, Radio, Row, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import { FormModal } from '../../../components/FormModal';
import { passwordRules, requiredRule, zodRule } from '../../../components/formRules';
import { useSession } from '../../../stores/session';
import { useCreateStaff, useEditStaff } from '../api';

export type StaffFormTarget = { mode: 'create' } | { mode: 'edit'; staff: Staff };

type Values = {
  username: string;
  password: string;
  name: string;
  phone: string;
  workNumber: string;
  sex: 1 | 2;
  email: string;
  cmDid: number;
  cmArid: number;
  merchantType: 1 | 2;
  actionState: 0 | 1;
  expireTime: Dayjs | null;
};

type Props = {
  isOpen: boolean;
  target: StaffFormTarget | null;
  departments: DepartmentNode[];
  roles: Role[];
  onClose: () => void;
};

const fields = staffCreateBody.shape;

const initialOf = (target: StaffFormTarget | null): Partial<Values> => {
  if (target?.mode !== 'edit') return { sex: 1, merchantType: 1, actionState: 0, expireTime: null };
  const s = target.staff;
  return {
    name: s.name,
    phone: s.phone,
    workNumber: s.workNumber,
    sex: s.sex as Values['sex'],
    email: s.email,
    cmDid: s.cmDid ?? undefined,
    cmArid: s.cmArid,
    merchantType: s.merchantType as Values['merchantType'],
    actionState: s.actionState as Values['actionState'],
    expireTime: s.expireTime ? dayjs(s.expireTime) : null,
  };
};

/** Create or edit a staff member (modal width 600, SPEC §9). Account and password only on create. */
export const StaffFormModal = ({ isOpen, target, departments, roles, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const myId = useSession((s) => s.userInfo?.cmSid);
  const create = useCreateStaff();
  const edit = useEditStaff();
  const isPending = create.isPending || edit.isPending;
  const editing = target?.mode === 'edit' ? target.staff : null;
  // The server refuses to lock out oneself or the company's creator; say so before it does.
  const isStateLocked = editing !== null && (editing.cmSid === myId || editing.isOwner === 1);

  const save = async (values: Values) => {
    if (!target) throw new Error('no target');
    const body = {
      name: values.name,
      phone: values.phone,
      workNumber: values.workNumber ?? '',
      sex: values.sex,
      email: values.email ?? '',
      cmDid: values.cmDid,
      cmArid: values.cmArid,
      merchantType: values.merchantType,
      actionState: values.actionState,
      expireTime: values.expireTime ? values.expireTime.format(DATETIME_FORMAT) : '',
    };
    if (editing) await edit.mutateAsync({ ...body, cmSid: editing.cmSid });
    else await create.mutateAsync({ ...body, username: values.username, password: values.password });
    return editing ? '保存成功' : '添加成功';
  };

  return (
    <FormModal
      open={isOpen}
      title={editing ? '编辑员工' : '新增员工'}
      name="staffForm"
      form={form}
      initialValues={initialOf(target)}
      isPending={isPending}
      onSubmit={save}
      onClose={onClose}
    >
      <Row gutter={16}>
        {!editing && (
          <>
            <Col span={12}>
              <Form.Item label="账号" name="username" rules={[requiredRule('请输入账号'), zodRule(fields.username)]}>
                <Input placeholder="字母开头，4-20位" maxLength={20} autoComplete="off" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label="初始密码" name="password" rules={passwordRules('初始密码')}>
                <Input.Password placeholder="6-32位，含字母和数字" maxLength={32} autoComplete="new-password" />
              </Form.Item>
            </Col>
          </>
        )}
        <Col span={12}>
          <Form.Item label="姓名" name="name" rules={[requiredRule('请输入姓名'), zodRule(fields.name)]}>
            <Input placeholder="请输入姓名" maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="手机号" name="phone" rules={[requiredRule('请输入手机号'), zodRule(fields.phone)]}>
            <Input placeholder="请输入11位手机号" maxLength={11} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="工号" name="workNumber" rules={[zodRule(fields.workNumber)]}>
            <Input placeholder="请输入工号" maxLength={20} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="性别" name="sex" rules={[requiredRule('请选择性别')]}>
            <Radio.Group
              options={[
                { value: 1, label: '男' },
                { value: 2, label: '女' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="邮箱" name="email" rules={[zodRule(fields.email)]}>
            <Input placeholder="请输入邮箱" maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="部门" name="cmDid" rules={[requiredRule('请选择部门')]}>
            <DepartmentTreeSelect departments={departments} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="角色"
            name="cmArid"
            rules={[requiredRule('请选择角色')]}
            extra={editing?.isOwner === 1 ? '企业创建人的角色不能修改' : undefined}
          >
            <Select
              placeholder="请选择角色"
              disabled={editing?.isOwner === 1}
              options={roles.map((r) => ({ value: r.cmArid, label: r.name }))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="到期时间" name="expireTime" extra="不选择则永久有效">
            <DatePicker
              showTime
              placeholder="永久有效"
              style={{ width: '100%' }}
              // An expiry in the past would lock the account at once.
              disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="账号类型" name="merchantType" rules={[requiredRule('请选择账号类型')]}>
            <Radio.Group
              options={[
                { value: 1, label: '普通账号' },
                { value: 2, label: '商户号' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="状态"
            name="actionState"
            rules={[requiredRule('请选择状态')]}
            extra={isStateLocked ? '不能禁用自己或企业创建人的账号' : undefined}
          >
            <Radio.Group
              disabled={isStateLocked}
              options={[
                { value: 0, label: '可用' },
                { value: 1, label: '禁用' },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
    </FormModal>
  );
};
