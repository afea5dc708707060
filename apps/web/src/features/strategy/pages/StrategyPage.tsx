import type { Strategy, StrategySetBody } from '@crm/contracts';
import { App, Button, Card, Form, InputNumber, Radio, Skeleton, Typography } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useSetStrategy, useStrategy } from '../api';

const yesNo = (yes: string, no: string) => [
  { value: 1, label: yes },
  { value: 0, label: no },
];

/** SPEC §5: maxCustomer and decryptPhoneNum are sent as numbers; an empty box means 0 (不限制). */
const toStrategyBody = (v: Partial<Strategy>): StrategySetBody => ({
  recycleRemind: Number(v.recycleRemind ?? 0),
  maxCustomer: Number(v.maxCustomer ?? 0),
  mustCustomerName: v.mustCustomerName === 1 ? 1 : 0,
  repeatCustomerName: v.repeatCustomerName === 1 ? 1 : 0,
  seaPhoneEncryp: v.seaPhoneEncryp === 1 ? 1 : 0,
  phoneEncryp: v.phoneEncryp === 1 ? 1 : 0,
  decryptPhoneNum: Number(v.decryptPhoneNum ?? 0),
});

/** /set/strategy: the company-wide customer rules, each enforced by the server where it applies. */
export const StrategyPage = () => {
  const { message } = App.useApp();
  const { data, isLoading } = useStrategy();
  const save = useSetStrategy();
  const [form] = Form.useForm<Strategy>();
  const maxCustomer = Form.useWatch('maxCustomer', form);
  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync(toStrategyBody(values));
    } catch {
      return;
    }
    message.success('保存成功');
  });

  return (
    <Card title="策略设置">
      {isLoading || !data ? (
        <Skeleton active />
      ) : (
        <Form
          form={form}
          name="strategyForm"
          layout="horizontal"
          labelCol={{ flex: '180px' }}
          initialValues={data}
          style={{ maxWidth: 760 }}
        >
          <Form.Item label="回收提醒" extra="客户被自动回收前几天在工作台和客户列表提示负责人（0 表示不提醒）">
            <Form.Item name="recycleRemind" noStyle>
              <InputNumber min={0} max={365} precision={0} addonAfter="天" style={{ width: 180 }} />
            </Form.Item>
          </Form.Item>
          <Form.Item label="每人客户上限" extra="员工名下私有客户的最大数量，新增、领取和分配都受此限制；0 表示不限制">
            <Form.Item name="maxCustomer" noStyle>
              <InputNumber min={0} max={1000000} precision={0} addonAfter="个" style={{ width: 180 }} />
            </Form.Item>
            {!maxCustomer && (
              <Typography.Text type="secondary" style={{ marginLeft: 12 }}>
                不限制
              </Typography.Text>
            )}
          </Form.Item>
          <Form.Item label="客户名称必填" name="mustCustomerName">
            <Radio.Group options={yesNo('必填', '非必填')} />
          </Form.Item>
          <Form.Item label="客户名称查重" name="repeatCustomerName" extra="开启后，同一企业内不能有两个同名客户">
            <Radio.Group options={yesNo('不允许重名', '允许重名')} />
          </Form.Item>
          <Form.Item label="公海号码隐藏" name="seaPhoneEncryp" extra="公海客户的电话号码显示为 138****0000">
            <Radio.Group options={yesNo('隐藏', '显示')} />
          </Form.Item>
          <Form.Item label="私有客户号码隐藏" name="phoneEncryp" extra="有「查看完整号码」权限的角色不受影响">
            <Radio.Group options={yesNo('隐藏', '显示')} />
          </Form.Item>
          <Form.Item label="每日查看完整号码次数" extra="号码隐藏时，每人每天点击查看完整号码的次数；0 表示不限制">
            <Form.Item name="decryptPhoneNum" noStyle>
              <InputNumber min={0} max={100000} precision={0} addonAfter="次" style={{ width: 180 }} />
            </Form.Item>
          </Form.Item>
          <Form.Item label=" " colon={false}>
            <Button type="primary" loading={save.isPending} disabled={isLocked} onClick={submit}>
              保存
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
};
