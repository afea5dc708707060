import { CONTACT_TYPE_LABEL, type Contact, contactBody, KP_TYPE_LABEL } from '@crm/contracts';
import { Form, Input, Radio, Select } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { requiredRule, zodRule } from '../../../components/formRules';
import { useCreateContact, useEditContact } from '../api';

/**
 * What the modal is opened for. Editing carries the number to prefill: the revealed one when
 * the row was revealed, else the row's (possibly masked) number, which the server keeps
 * as stored when it comes back unchanged.
 */
export type ContactFormTarget = { mode: 'create' } | { mode: 'edit'; contact: Contact; contactNo: string };

type Values = {
  contactPerson?: string;
  contactNo: string;
  contactType: 1 | 2 | 3;
  contactPosition?: string;
  kpType: 0 | 1 | 3 | 4;
  recommend: 0 | 1;
};

type Props = {
  cmCtid: number;
  isOpen: boolean;
  target: ContactFormTarget | null;
  onClose: () => void;
  /** after a successful save, with the number as sent */
  onSaved?: (contactNo: string) => void;
};

const { shape } = contactBody;
const CONTACT_TYPE_OPTIONS = Object.entries(CONTACT_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));
const KP_TYPE_OPTIONS = Object.entries(KP_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }));

const initialValuesOf = (target: ContactFormTarget | null): Values => {
  if (target?.mode !== 'edit') {
    return { contactPerson: '', contactNo: '', contactType: 1, contactPosition: '', kpType: 0, recommend: 0 };
  }
  const c = target.contact;
  return {
    contactPerson: c.contactPerson,
    contactNo: target.contactNo,
    contactType: c.contactType as Values['contactType'],
    contactPosition: c.contactPosition,
    kpType: c.kpType as Values['kpType'],
    recommend: c.recommend === 1 ? 1 : 0,
  };
};

/** Add or edit a number on the phone tab (limits and messages from the contract's contactBody). */
export const ContactFormModal = ({ cmCtid, isOpen, target, onClose, onSaved }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateContact(cmCtid);
  const edit = useEditContact(cmCtid);
  const isEdit = target?.mode === 'edit';
  const isPending = create.isPending || edit.isPending;

  const onSubmit = async (values: Values) => {
    const body = {
      cmCtid,
      contactPerson: values.contactPerson?.trim() ?? '',
      contactNo: values.contactNo.trim(),
      contactType: values.contactType,
      contactPosition: values.contactPosition?.trim() ?? '',
      kpType: values.kpType,
      recommend: values.recommend,
    };
    if (target?.mode === 'edit') await edit.mutateAsync({ ...body, ccId: target.contact.ccId });
    else await create.mutateAsync(body);
    onSaved?.(body.contactNo);
    return isEdit ? '添加/更新成功！' : '添加成功';
  };

  return (
    <FormModal
      open={isOpen && target !== null}
      title={isEdit ? '编辑电话' : '添加电话'}
      name="contactForm"
      form={form}
      initialValues={initialValuesOf(target)}
      isPending={isPending}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <Form.Item label="联系人" name="contactPerson" rules={[zodRule(shape.contactPerson)]}>
        <Input placeholder="请输入联系人" maxLength={20} allowClear />
      </Form.Item>
      <Form.Item
        label="联系电话"
        name="contactNo"
        rules={[{ ...requiredRule('请输入联系电话'), whitespace: true }, zodRule(shape.contactNo)]}
        extra="手机号，或带区号的座机号（如 010-62345678）"
      >
        <Input placeholder="请输入联系电话" maxLength={20} allowClear />
      </Form.Item>
      <Form.Item label="类型" name="contactType">
        <Select options={CONTACT_TYPE_OPTIONS} />
      </Form.Item>
      <Form.Item label="职位" name="contactPosition" rules={[zodRule(shape.contactPosition)]}>
        <Input placeholder="请输入职位" maxLength={30} allowClear />
      </Form.Item>
      <Form.Item label="热度" name="kpType">
        <Select options={KP_TYPE_OPTIONS} />
      </Form.Item>
      <Form.Item label="推荐" name="recommend">
        <Radio.Group
          options={[
            { value: 1, label: '是' },
            { value: 0, label: '否' },
          ]}
        />
      </Form.Item>
    </FormModal>
  );
};
