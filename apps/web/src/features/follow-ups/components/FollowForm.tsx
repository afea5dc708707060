import { type CustomerDetail, FOLLOW_LIMITS } from '@crm/contracts';
import { App, Button, DatePicker, Form, Input } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo } from 'react';
import {
  type ControlFormValues,
  enabledControls,
  fromStored,
  TemplateFields,
  toSubmitted,
} from '../../../components/TemplateForm';
import { useButtonLock } from '../../../components/useButtonLock';
import { useTemplateInfo } from '../../customers/templates-api';
import { useCreateFollow } from '../api';
import styles from './FollowForm.module.css';
import { emptyFollowMessage } from './followFormRules';

type Values = { remark?: string; nextFollowTime?: Dayjs | null; c?: ControlFormValues };

/** SPEC §5: the next appointment is not before today and has no seconds. */
const isBeforeToday = (d: Dayjs) => d.isBefore(dayjs().startOf('day'));

/** 写跟进: the record, the next appointment and the template controls marked 跟进显示. */
export const FollowForm = ({ customer }: { customer: CustomerDetail }) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const template = useTemplateInfo(0);
  const create = useCreateFollow();
  const controls = useMemo(
    () => enabledControls(template.data?.templateControls ?? []).filter((c) => c.isFollowShow === 1),
    [template.data],
  );
  const stored = useMemo(() => fromStored(controls, customer.templateControls), [controls, customer.templateControls]);
  useEffect(() => {
    form.setFieldsValue({ c: stored });
  }, [form, stored]);

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const submitted = toSubmitted(values.c, controls);
    const empty = emptyFollowMessage({
      remark: values.remark,
      hasNextFollowTime: !!values.nextFollowTime,
      controls: submitted,
      storedControls: toSubmitted(stored, controls),
    });
    if (empty) {
      form.setFields([{ name: 'remark', errors: [empty] }]);
      return;
    }
    try {
      await create.mutateAsync({
        cmCtid: customer.cmCtid,
        remark: values.remark?.trim() ?? '',
        nextFollowTime: values.nextFollowTime ? values.nextFollowTime.second(0).unix() : undefined,
        templateControls: submitted,
      });
    } catch {
      return;
    }
    message.success('跟进成功');
    form.resetFields();
    form.setFieldsValue({ c: stored });
  });

  return (
    <Form form={form} name="followForm" layout="vertical" className="follow-form">
      <Form.Item
        name="remark"
        label="跟进内容"
        rules={[{ max: FOLLOW_LIMITS.remark, message: `跟进内容最多${FOLLOW_LIMITS.remark}个字符` }]}
      >
        <Input.TextArea
          rows={3}
          maxLength={FOLLOW_LIMITS.remark}
          showCount
          placeholder="记录本次沟通的内容，如客户需求、异议、约定事项"
        />
      </Form.Item>
      <Form.Item name="nextFollowTime" label="下次跟进时间">
        <DatePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          disabledDate={isBeforeToday}
          placeholder="请选择下次跟进时间"
          style={{ width: 240 }}
        />
      </Form.Item>
      {controls.length > 0 && (
        <div className={styles.controls}>
          <TemplateFields controls={controls} />
        </div>
      )}
      <Button type="primary" onClick={submit} loading={create.isPending} disabled={isLocked && !create.isPending}>
        提交跟进
      </Button>
    </Form>
  );
};
