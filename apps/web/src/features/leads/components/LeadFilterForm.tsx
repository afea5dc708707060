import { LEAD_LIMITS, LEAD_STATUS_LABEL } from '@crm/contracts';
import { REGIONS } from '@crm/regions';
import { Cascader, Checkbox, Col, Form, type FormInstance, Input, InputNumber, Row, Select, Space, TreeSelect } from 'antd';
import { INDUSTRY_OPTIONS, type LeadFilterValues } from './leadFilters';

const STATUS_OPTIONS = Object.entries(LEAD_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));
const THIS_YEAR = new Date().getFullYear();

type Props = {
  form: FormInstance<LeadFilterValues>;
  /** columns per row: 3 on a page, 2 in a dialog */
  columns?: 2 | 3;
  /** hide the name keyword (the map page searches by area) */
  isNameHidden?: boolean;
  /** the filters to start from (a template being edited) */
  initialValues?: LeadFilterValues;
};

/**
 * The filters of 找线索, of an industry template and of the map: region (province/city/district),
 * GB/T 4754 industry, capital and founding-year ranges, status, has phone / mobile, keywords.
 */
export const LeadFilterForm = ({ form, columns = 3, isNameHidden = false, initialValues }: Props) => {
  const span = 24 / columns;
  return (
    <Form
      form={form}
      layout="horizontal"
      labelCol={{ flex: '84px' }}
      labelWrap
      colon={false}
      initialValues={initialValues}
      // in a dialog (started from a template) nothing outlives the dialog
      preserve={initialValues === undefined}
    >
      <Row gutter={16}>
        <Col span={span}>
          <Form.Item label="所在地区" name="region">
            <Cascader options={REGIONS} changeOnSelect showSearch placeholder="省 / 市 / 区" allowClear />
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="行业" name="industryCode">
            <TreeSelect
              treeData={INDUSTRY_OPTIONS}
              showSearch={{ treeNodeFilterProp: 'title' }}
              placeholder="国民经济行业分类"
              allowClear
              popupMatchSelectWidth={360}
            />
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="注册资本">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="capitalMin" noStyle>
                <InputNumber min={0} max={100_000_000} precision={0} placeholder="最低" style={{ width: '50%' }} />
              </Form.Item>
              <Form.Item name="capitalMax" noStyle>
                <InputNumber min={0} max={100_000_000} precision={0} placeholder="最高" suffix="万" style={{ width: '50%' }} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="成立年份">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="foundedFrom" noStyle>
                <InputNumber min={1900} max={THIS_YEAR} precision={0} placeholder="起始年" style={{ width: '50%' }} />
              </Form.Item>
              <Form.Item name="foundedTo" noStyle>
                <InputNumber min={1900} max={THIS_YEAR} precision={0} placeholder="结束年" style={{ width: '50%' }} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="登记状态" name="statuses">
            <Select mode="multiple" options={STATUS_OPTIONS} placeholder="全部" allowClear />
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="联系方式" name="contact">
            <Checkbox.Group
              options={[
                { value: 'phone', label: '有电话' },
                { value: 'mobile', label: '有手机' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col span={span}>
          <Form.Item label="经营范围" name="scopeKeyword">
            <Input placeholder="经营范围关键词" maxLength={LEAD_LIMITS.keyword} allowClear />
          </Form.Item>
        </Col>
        {!isNameHidden && (
          <Col span={span}>
            <Form.Item label="企业名称" name="keyword">
              <Input placeholder="名称关键词" maxLength={LEAD_LIMITS.keyword} allowClear />
            </Form.Item>
          </Col>
        )}
      </Row>
    </Form>
  );
};
