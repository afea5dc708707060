import { PlusOutlined } from '@ant-design/icons';
import { ORDER_ATTRS, ORDER_LIMITS, type OrderStoreBody } from '@crm/contracts';
import { Alert, App, Button, Col, ConfigProvider, Divider, Flex, Form, Input, Modal, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../api/http';
import { ImageListUpload } from '../../../components/ImageListUpload';
import type { UploadedImage } from '../../../components/ImageUpload';
import { yuanToMilli } from '../../../components/money';
import { fetchTemplateInfo, startApproval } from '../../approvals/api';
import { ApprovalSection, type ApprovalSectionValues, approvalBody } from '../../approvals/components/ApprovalSection';
import { DynamicField, dynamicValueToStrings } from '../../approvals/components/DynamicField';
import { storeOrder, useInvalidateOrders } from '../api';
import { OrderLinesTable } from './OrderLinesTable';
import type { OrderLine } from './orderLines';
import { ProductPickerModal } from './ProductPickerModal';

type Values = ApprovalSectionValues & {
  contact_phone: string;
  attr?: Record<string, unknown>;
  remark?: string;
  images?: UploadedImage[];
};

type Props = {
  open: boolean;
  customer: { cmCtid: number; name: string; phone?: string };
  onClose: () => void;
};

const attrBody = (values: Values): OrderStoreBody['attr'] =>
  Object.fromEntries(
    ORDER_ATTRS.map((a) => {
      const v = dynamicValueToStrings(a, values.attr?.[String(a.id)]);
      return [String(a.id), a.dmType === 8 ? v : (v[0] ?? null)];
    }),
  );

/**
 * 新建订单 (SPEC §2 deal order window, §4 submit): the order is stored first, then its approval
 * is started with the new order id. If that second step fails the order stays 待提交 and this
 * window offers to submit the approval again.
 */
export const OrderFormModal = ({ open, customer, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const invalidate = useInvalidateOrders();
  const [lines, setLines] = useState<OrderLine[]>([]);
  const [isPickerOpen, setPickerOpen] = useState(false);
  const [isSaving, setSaving] = useState(false);
  // SPEC §4: the stored order whose approval could not start (kept 待提交), and why.
  const [draft, setDraft] = useState<{ orderId: number; reason: string } | null>(null);

  const close = () => {
    setLines([]);
    setDraft(null);
    onClose();
  };

  const submitApproval = async (orderId: number, values: Values) => {
    try {
      const template = await fetchTemplateInfo(values.coMatid as number);
      await startApproval(approvalBody(template, values, orderId));
    } catch (err) {
      const reason = err instanceof ApiError ? err.message : '审批提交失败';
      message.error(reason);
      setDraft({ orderId, reason });
      await invalidate();
      return;
    }
    await invalidate();
    message.success('添加成功');
    close();
  };

  const submit = async () => {
    const values = await form.validateFields();
    if (draft) return submitApproval(draft.orderId, values);
    if (lines.length === 0) return message.error('请选择产品');
    const bad = lines.find((l) => yuanToMilli(l.price) === undefined);
    if (bad) return message.error(`请输入「${bad.name}」的成交价`);
    setSaving(true);
    try {
      const { order_id } = await storeOrder({
        customer_id: customer.cmCtid,
        contact_phone: values.contact_phone.trim(),
        remark: values.remark ?? '',
        images: (values.images ?? []).map((i) => i.id),
        attr: attrBody(values),
        product: lines.map((l) => ({
          id: l.productId,
          specifications_list: l.specIds,
          cost_price: yuanToMilli(l.price) as number,
          num: l.num,
          cost: l.cost,
          stand_price: l.minimumPrice,
        })),
      });
      await submitApproval(order_id, values);
    } catch {
      // the http client has shown the server's message; nothing was stored
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title="新建订单"
      open={open}
      width={1040}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" gap={16}>
          {draft ? (
            // in the footer so it shows wherever the form is scrolled
            <Alert
              type="warning"
              showIcon
              style={{ textAlign: 'left', padding: '4px 12px' }}
              message={`订单已保存为待提交（${draft.reason}），请调整审批流程后重新提交`}
            />
          ) : (
            <span />
          )}
          <Space>
            <Button onClick={close}>取消</Button>
            <Button type="primary" loading={isSaving} onClick={submit}>
              {draft ? '重新提交审批' : '提交'}
            </Button>
          </Space>
        </Flex>
      }
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } }}
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ contact_phone: customer.phone ?? '' }}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="客户名称">
              <Typography.Text strong>{customer.name || '未命名'}</Typography.Text>
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              label="联系方式"
              name="contact_phone"
              rules={[{ required: true, whitespace: true, message: '请输入联系方式' }]}
            >
              <Input maxLength={20} placeholder="请输入联系方式" disabled={draft !== null} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          产品
        </Divider>
        <Button
          icon={<PlusOutlined />}
          style={{ marginBottom: 12 }}
          disabled={draft !== null}
          onClick={() => setPickerOpen(true)}
        >
          添加产品
        </Button>
        <OrderLinesTable lines={lines} onChange={setLines} isReadOnly={draft !== null} />
        {/* a stored order (待提交) keeps its facts: only the approval can change */}
        <ConfigProvider componentDisabled={draft !== null}>
          <Divider titlePlacement="start" plain>
            订单信息
          </Divider>
          <Row gutter={16}>
            {ORDER_ATTRS.map((a) => (
              <Col span={12} key={a.id}>
                <DynamicField control={a} name={['attr', String(a.id)]} />
              </Col>
            ))}
          </Row>
          <Form.Item label="备注" name="remark">
            <Input.TextArea rows={3} maxLength={ORDER_LIMITS.remark} showCount placeholder="请输入备注" />
          </Form.Item>
          <Form.Item label="图片" name="images" extra="最多9张，支持 png、jpg、jpeg">
            <ImageListUpload max={ORDER_LIMITS.images} />
          </Form.Item>
        </ConfigProvider>
        <Divider titlePlacement="start" plain>
          审批
        </Divider>
        <ApprovalSection />
      </Form>
      <ProductPickerModal
        open={isPickerOpen}
        onClose={() => setPickerOpen(false)}
        onAdd={(added) => setLines((prev) => [...prev, ...added.filter((a) => !prev.some((p) => p.key === a.key))])}
      />
    </Modal>
  );
};
