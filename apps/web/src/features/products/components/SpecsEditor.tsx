import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { PRODUCT_LIMITS } from '@crm/contracts';
import { Button, Form, Input, Select, Space, Table, Typography } from 'antd';
import { useEffect } from 'react';
import { YuanInput, yuanRules } from '../../../components/YuanInput';
import { combinations, type PriceInput, type SpecInput, variantKey, variantPrefill } from './variants';

/**
 * 规格: the specifications (name + values, e.g. 版本: 基础版/专业版) and, below, one row of
 * prices per combination (版本 × 年限), each with its own price, cost and minimum price.
 */
export const SpecsEditor = () => {
  const form = Form.useFormInstance();
  const specs: SpecInput[] = Form.useWatch('specifications', form) ?? [];
  const combos = combinations(specs);
  const price: string | undefined = Form.useWatch('price', form);
  const cost: string | undefined = Form.useWatch('cost', form);
  const minimumPrice: string | undefined = Form.useWatch('minimum_price', form);
  const combosKey = combos.map(variantKey).join('|');

  // A new combination (or a base price typed later) prefills the empty variant prices with the base prices.
  // biome-ignore lint/correctness/useExhaustiveDependencies: combosKey stands for combos (a new array each render)
  useEffect(() => {
    const variants: Record<string, PriceInput> | undefined = form.getFieldValue('variants');
    const patch = variantPrefill(combos, variants, { price, cost, minimum_price: minimumPrice });
    if (Object.keys(patch).length > 0) form.setFieldsValue({ variants: patch });
  }, [form, combosKey, price, cost, minimumPrice]);

  return (
    <>
      <Form.List name="specifications">
        {(fields, { add, remove }) => (
          <>
            {fields.map((field, i) => (
              <Space key={field.key} align="start" style={{ display: 'flex', marginBottom: 4 }}>
                <Form.Item
                  name={[field.name, 'name']}
                  rules={[{ required: true, whitespace: true, message: '请输入规格名称' }]}
                  style={{ width: 140, marginBottom: 8 }}
                >
                  <Input placeholder="规格名，如 版本" maxLength={PRODUCT_LIMITS.specName} aria-label={`规格${i + 1}名称`} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'values']}
                  rules={[{ required: true, type: 'array', min: 1, message: '请输入规格值' }]}
                  style={{ width: 420, marginBottom: 8 }}
                >
                  <Select
                    mode="tags"
                    open={false}
                    tokenSeparators={[',', '，']}
                    maxCount={PRODUCT_LIMITS.specValues}
                    placeholder="规格值，回车添加，如 基础版、专业版"
                    aria-label={`规格${i + 1}的值`}
                  />
                </Form.Item>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除规格" onClick={() => remove(field.name)} />
              </Space>
            ))}
            {fields.length < PRODUCT_LIMITS.specs && (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ name: '', values: [] })}>
                添加规格
              </Button>
            )}
          </>
        )}
      </Form.List>
      {combos.length > 0 && (
        <Table
          style={{ marginTop: 12 }}
          size="small"
          rowKey={(values) => variantKey(values)}
          pagination={false}
          dataSource={combos}
          columns={[
            { title: '规格组合', key: 'combo', render: (_, values) => <Typography.Text>{variantKey(values)}</Typography.Text> },
            ...(['price', 'cost', 'minimum_price'] as const).map((k) => {
              const label = { price: '售价', cost: '成本价', minimum_price: '最低价' }[k];
              return {
                title: `${label}(元)`,
                key: k,
                width: 150,
                render: (_: unknown, values: string[]) => (
                  <Form.Item name={['variants', variantKey(values), k]} rules={yuanRules(label)} style={{ marginBottom: 0 }}>
                    <YuanInput size="small" aria-label={`${variantKey(values)} ${label}`} />
                  </Form.Item>
                ),
              };
            }),
          ]}
        />
      )}
    </>
  );
};
