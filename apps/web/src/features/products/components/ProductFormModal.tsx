import { PRODUCT_LIMITS, type Product, type ProductBody } from '@crm/contracts';
import { App, Col, Form, Input, Modal, Radio, Row, TreeSelect, Typography } from 'antd';
import { yuanToMilli } from '../../../components/money';
import { YuanInput, yuanRules } from '../../../components/YuanInput';
import { useCategoryTree, useCreateProduct, useEditProduct } from '../api';
import { SpecsEditor } from './SpecsEditor';
import { basePricesOf, combinations, type PriceInput, productFormValues, type SpecInput, variantKey } from './variants';

type Values = {
  name: string;
  code?: string;
  pcid?: number;
  status: 0 | 1;
  remark?: string;
  price: string;
  cost: string;
  minimum_price: string;
  specifications?: SpecInput[];
  variants?: Record<string, PriceInput>;
};

type Props = { open: boolean; product: Product | null; onClose: () => void };

const milli = (v: string | undefined) => yuanToMilli(v) ?? 0;

/**
 * The form's values as the API body: yuan → 1/1000 yuan, one price row per combination. With
 * variants the base prices are optional: an empty one is saved as the lowest of its variants'.
 */
const toBody = (v: Values): ProductBody => {
  const specs = (v.specifications ?? []).filter((s) => s.name?.trim() && (s.values ?? []).length > 0);
  const detailed = combinations(specs).map((values) => {
    const p = v.variants?.[variantKey(values)] ?? {};
    return { values, price: milli(p.price), cost: milli(p.cost), minimum_price: milli(p.minimum_price) };
  });
  const lowest = detailed.length > 0 ? basePricesOf(detailed) : { price: 0, cost: 0, minimum_price: 0 };
  const base = (typed: string | undefined, k: keyof typeof lowest) => (typed?.trim() ? milli(typed) : lowest[k]);
  return {
    name: v.name.trim(),
    code: v.code?.trim() ?? '',
    pcid: v.pcid ?? 0,
    status: v.status,
    remark: v.remark ?? '',
    price: base(v.price, 'price'),
    cost: base(v.cost, 'cost'),
    minimum_price: base(v.minimum_price, 'minimum_price'),
    specifications: specs.map((s) => ({ name: (s.name ?? '').trim(), values: s.values ?? [] })),
    detailed,
  };
};

/** 新增产品 / 编辑产品: the product, its prices in yuan and its variants by specification. */
export const ProductFormModal = ({ open, product, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const tree = useCategoryTree();
  const create = useCreateProduct();
  const edit = useEditProduct();
  const specs: SpecInput[] = Form.useWatch('specifications', form) ?? [];
  const hasVariants = combinations(specs).length > 0;

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      // the invalid fields show their messages; the first one is scrolled into view
      form.scrollToField(form.getFieldsError().find((f) => f.errors.length > 0)?.name ?? 'name');
      return;
    }
    const body = toBody(values);
    try {
      if (product) await edit.mutateAsync({ ...body, id: product.id });
      else await create.mutateAsync(body);
    } catch {
      return;
    }
    message.success(product ? '操作成功' : '添加成功');
    onClose();
  };

  return (
    <Modal
      title={product ? '编辑产品' : '新增产品'}
      open={open}
      width={860}
      onCancel={onClose}
      onOk={submit}
      okText="保存"
      confirmLoading={create.isPending || edit.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={product ? productFormValues(product) : { status: 1, specifications: [] }}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="name" label="产品名称" rules={[{ required: true, whitespace: true, message: '请输入产品名称' }]}>
              <Input maxLength={PRODUCT_LIMITS.name} placeholder="请输入产品名称" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="code" label="产品编号">
              <Input maxLength={PRODUCT_LIMITS.code} placeholder="请输入产品编号" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="pcid" label="产品分类">
              <TreeSelect
                allowClear
                treeDefaultExpandAll
                placeholder="请选择产品分类"
                fieldNames={{ label: 'name', value: 'id', children: 'children' }}
                treeData={tree.data ?? []}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="status" label="状态">
              <Radio.Group
                options={[
                  { value: 1, label: '上架' },
                  { value: 0, label: '下架' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="price" label="售价(元)" rules={yuanRules('售价', !hasVariants)}>
              <YuanInput placeholder={hasVariants ? '按规格定价' : '0.00'} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="cost" label="成本价(元)" rules={yuanRules('成本价', !hasVariants)}>
              <YuanInput placeholder={hasVariants ? '按规格定价' : '0.00'} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="minimum_price" label="最低价(元)" rules={yuanRules('最低价', !hasVariants)}>
              <YuanInput placeholder={hasVariants ? '按规格定价' : '0.00'} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          label="规格"
          extra={
            <Typography.Text type="secondary">
              无规格时按上面的价格销售；有规格时每个组合单独定价（默认取上面的价格，上面不填则取各组合的最低价）
            </Typography.Text>
          }
        >
          <SpecsEditor />
        </Form.Item>
        <Form.Item name="remark" label="备注">
          <Input.TextArea maxLength={PRODUCT_LIMITS.remark} showCount rows={3} placeholder="请输入备注" />
        </Form.Item>
      </Form>
    </Modal>
  );
};
