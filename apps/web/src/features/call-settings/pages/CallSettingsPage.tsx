import {
  BRIDGE_MODE_LABEL,
  BRIDGE_MODES,
  CALL_HOURS_MSG,
  type CallSettingsInfo,
  type CallSettingsSaveBody,
  callerNumberSchema,
  callHoursSchema,
} from '@crm/contracts';
import { App, Button, Card, Checkbox, Form, Input, Radio, Skeleton, Space, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { zodRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCallSettings, useSaveCallSettings } from '../api';
import { ComplianceFields } from './ComplianceFields';
import { TestCallCard } from './TestCallCard';

type FormValues = {
  callerNumber: string;
  isAllDay: boolean;
  hours: [Dayjs, Dayjs] | null;
  bridgeMode: CallSettingsSaveBody['bridgeMode'];
  manualObeysHours: boolean;
  capPer5Min: number;
  capPerDay: number;
  dncRetentionMonths: number;
};

const ALL_DAY = { from: '00:00', to: '24:00' };
const isAllDay = (h: { from: string; to: string }) => h.from === ALL_DAY.from && h.to === ALL_DAY.to;

const toForm = (s: CallSettingsInfo): FormValues => ({
  callerNumber: s.callerNumber,
  isAllDay: isAllDay(s.callHours),
  hours: isAllDay(s.callHours)
    ? null
    : [dayjs(s.callHours.from, 'HH:mm'), dayjs(s.callHours.to === '24:00' ? '00:00' : s.callHours.to, 'HH:mm')],
  bridgeMode: s.bridgeMode,
  manualObeysHours: s.manualObeysHours,
  capPer5Min: s.capPer5Min,
  capPerDay: s.capPerDay,
  dncRetentionMonths: s.dncRetentionMonths,
});

const toHours = (v: Pick<FormValues, 'isAllDay' | 'hours'>) =>
  v.isAllDay || !v.hours ? ALL_DAY : { from: v.hours[0].format('HH:mm'), to: v.hours[1].format('HH:mm') };

/** /call/setting 外呼设置: the company's calling rules (server calls, hours, caps, 禁拨 retention), and 线路测试. */
export const CallSettingsPage = () => {
  const { message } = App.useApp();
  const { data, isLoading } = useCallSettings();
  const save = useSaveCallSettings();
  const [form] = Form.useForm<FormValues>();
  const allDay = Form.useWatch('isAllDay', form);
  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await save.mutateAsync({
        callerNumber: values.callerNumber?.trim() ?? '',
        callHours: toHours(values),
        bridgeMode: values.bridgeMode,
        manualObeysHours: values.manualObeysHours,
        capPer5Min: values.capPer5Min,
        capPerDay: values.capPerDay,
        dncRetentionMonths: values.dncRetentionMonths,
      });
    } catch {
      return;
    }
    message.success('保存成功');
  });

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title="外呼设置">
        {isLoading || !data ? (
          <Skeleton active />
        ) : (
          <Form
            form={form}
            name="callSettingsForm"
            layout="horizontal"
            labelCol={{ flex: '150px' }}
            initialValues={toForm(data)}
            style={{ maxWidth: 820 }}
          >
            <Form.Item
              label="外显号码"
              name="callerNumber"
              rules={[zodRule(callerNumberSchema)]}
              extra="系统外呼（任务、AI 外呼、线路测试）时客户看到的号码，4–20 位数字；留空则使用线路自带号码"
            >
              <Input placeholder="例如 057188886666" maxLength={20} allowClear style={{ width: 280 }} />
            </Form.Item>
            <Form.Item label="外呼时段" required extra="北京时间；结束时间早于开始时间表示跨过零点（如 20:00–02:00）">
              <Space size={16} wrap>
                <Form.Item name="isAllDay" valuePropName="checked" noStyle>
                  <Checkbox>全天</Checkbox>
                </Form.Item>
                <Form.Item
                  name="hours"
                  noStyle
                  hidden={allDay}
                  dependencies={['isAllDay']}
                  rules={[
                    ({ getFieldValue }) => ({
                      validator: async (_, value: [Dayjs, Dayjs] | null) => {
                        if (getFieldValue('isAllDay')) return;
                        if (!value?.[0] || !value?.[1]) throw new Error(CALL_HOURS_MSG);
                        const result = callHoursSchema.safeParse(toHours({ isAllDay: false, hours: value }));
                        if (!result.success) throw new Error(result.error.issues[0]?.message ?? CALL_HOURS_MSG);
                      },
                    }),
                  ]}
                >
                  <TimePicker.RangePicker
                    format="HH:mm"
                    minuteStep={5}
                    order={false}
                    placeholder={['开始时间', '结束时间']}
                    style={{ width: 260 }}
                  />
                </Form.Item>
              </Space>
            </Form.Item>
            <Form.Item
              label="桥接方式"
              name="bridgeMode"
              extra="坐席接入系统外呼的通话时语音如何连通：默认由媒体服务器直连两端；个别线路不支持重新协商时改为由系统转发语音"
            >
              <Radio.Group options={BRIDGE_MODES.map((m) => ({ value: m, label: BRIDGE_MODE_LABEL[m] }))} />
            </Form.Item>
            <ComplianceFields />
            <Form.Item label=" " colon={false}>
              <Button type="primary" loading={save.isPending} disabled={isLocked} onClick={submit}>
                保存
              </Button>
            </Form.Item>
          </Form>
        )}
      </Card>
      {data && <TestCallCard settings={data} />}
    </Space>
  );
};
