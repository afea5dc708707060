import {
  DM_TYPE,
  DM_TYPE_LABEL,
  DM_TYPES,
  JUDGE_KINDS,
  OPTION_KINDS,
  SEARCHABLE_KINDS,
  type TemplateControl,
  TREE_KINDS,
  templateControlBody,
} from '@crm/contracts';
import { Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Space, Switch } from 'antd';
import { useMemo } from 'react';
import { FormModal } from '../../../../components/FormModal';
import { zodRule } from '../../../../components/formRules';
import { placeholderOf, TemplatePreview } from '../../../../components/TemplateForm';
import { useCreateControl, useEditControl } from '../../templates-api';
import { treeProblem, treeValues } from './control-tree';
import { bodyOfValues, type ControlFormTarget, draftOf, initialOf, type Values } from './controlValues';
import { OptionListField } from './OptionListField';
import { type EditorOption, TreeOptionsEditor } from './TreeOptionsEditor';

type Props = {
  isOpen: boolean;
  target: ControlFormTarget | null;
  /** the template as designed, for the group choices and the default order */
  controls: TemplateControl[];
  onClose: () => void;
};

const fields = templateControlBody.shape;

const KIND_OPTIONS = DM_TYPES.map((t) => ({ value: t, label: DM_TYPE_LABEL[t] ?? String(t) }));

/** What each kind is for, shown under the kind select. */
const KIND_HINT: Record<number, string> = {
  [DM_TYPE.text]: '单行文字，最多50个字符',
  [DM_TYPE.textarea]: '多行文字，最多500个字符',
  [DM_TYPE.integer]: '只能输入整数，最多20位',
  [DM_TYPE.number]: '可输入小数，最多20位',
  [DM_TYPE.phone]: '手机号或座机号，可设置查重',
  [DM_TYPE.address]: '省/市/区三级地区，可只选到省或市',
  [DM_TYPE.file]: '最多上传5个文件',
  [DM_TYPE.staticText]: '只显示一段说明文字，不需要填写',
  [DM_TYPE.customCascader]: '自定义多级选项',
  [DM_TYPE.selectByText]: '可输入文字搜索选项的下拉选择',
  [DM_TYPE.tags]: '从客户标签中多选',
  [DM_TYPE.company]: '搜索并关联一个已有客户（企业）',
  [DM_TYPE.cascader]: '多级选项',
  [DM_TYPE.group]: '一个文本框加一组子控件；子控件在添加时选择所属分组',
};

/** A tall form: the body scrolls, the buttons stay in sight. */
const BODY_STYLE = { maxHeight: 'calc(100vh - 240px)', overflowY: 'auto', overflowX: 'hidden', paddingRight: 8 } as const;

/** The yes/no settings of a control, each shown for the kinds that can have it. */
const SWITCHES: {
  name: 'dmMust' | 'isJudge' | 'isFollowShow' | 'isSearch';
  label: string;
  tooltip?: string;
  isShown: (t: number) => boolean;
}[] = [
  { name: 'dmMust', label: '必填', isShown: (t) => t !== DM_TYPE.staticText },
  { name: 'isJudge', label: '查重', tooltip: '该值在本企业的客户中不能重复', isShown: (t) => JUDGE_KINDS.includes(t) },
  { name: 'isFollowShow', label: '跟进时显示', tooltip: '在写跟进时一并显示、修改', isShown: () => true },
  { name: 'isSearch', label: '可作筛选', tooltip: '客户列表的搜索栏可以按它筛选', isShown: (t) => SEARCHABLE_KINDS.includes(t) },
];

/** Add or edit one control of the customer template, with a preview of how it will look. */
export const ControlFormModal = ({ isOpen, target, controls, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const create = useCreateControl();
  const edit = useEditControl();
  const editing = target?.mode === 'edit' ? target.control : null;
  const hasChildren = (editing?.children?.length ?? 0) > 0;
  const initialValues = useMemo(() => initialOf(target, controls), [target, controls]);
  const lockedValues = useMemo(() => new Set(treeValues(editing?.ctrlList ?? [])), [editing]);

  const all = Form.useWatch([], form) as Partial<Values> | undefined;
  const dmType = all?.dmType ?? initialValues.dmType ?? DM_TYPE.text;
  const isGroup = dmType === DM_TYPE.group;
  const isStatic = dmType === DM_TYPE.staticText;
  const draft = useMemo(() => draftOf(all ?? initialValues, editing), [all, initialValues, editing]);

  const groups = controls.filter((c) => c.dmType === DM_TYPE.group && c.cbTacid !== editing?.cbTacid);

  const save = async (v: Values) => {
    if (!target) throw new Error('no target');
    const body = bodyOfValues(v);
    if (editing) await edit.mutateAsync({ ...body, cbTacid: editing.cbTacid });
    else await create.mutateAsync(body);
    return editing ? '保存成功' : '添加成功';
  };
  const isPending = create.isPending || edit.isPending;

  return (
    <FormModal
      open={isOpen}
      title={editing ? '编辑控件' : '添加控件'}
      name="templateControlForm"
      form={form}
      initialValues={initialValues}
      isPending={isPending}
      onSubmit={save}
      onClose={onClose}
      width={760}
      bodyStyle={BODY_STYLE}
      after={
        <>
          <Divider titlePlacement="start" plain style={{ margin: '8px 0 16px' }}>
            效果预览
          </Divider>
          <div style={{ padding: '16px 16px 0', background: '#fafafa', borderRadius: 8 }}>
            <TemplatePreview name="controlDraftPreview" controls={[draft]} />
          </div>
        </>
      }
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            label="控件名称"
            name="name"
            rules={[{ required: true, whitespace: true, message: '请输入控件名称' }, zodRule(fields.name)]}
          >
            <Input placeholder="如：联系人、手机、行业" maxLength={20} showCount />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            label="控件类型"
            name="dmType"
            rules={[{ required: true, message: '请选择控件类型' }]}
            extra={hasChildren ? '分组内还有控件，不能修改类型' : KIND_HINT[dmType]}
          >
            <Select
              options={KIND_OPTIONS}
              disabled={hasChildren}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(t: number) => {
                // Options and switches that the new kind cannot have are cleared.
                if (!JUDGE_KINDS.includes(t)) form.setFieldValue('isJudge', false);
                if (!SEARCHABLE_KINDS.includes(t)) form.setFieldValue('isSearch', false);
                if (t === DM_TYPE.group) form.setFieldValue('pid', 0);
                if (OPTION_KINDS.includes(t) && (form.getFieldValue('options') ?? []).length === 0)
                  form.setFieldValue('options', ['', '']);
              }}
            />
          </Form.Item>
        </Col>
        {!isGroup && (
          <Col span={12}>
            <Form.Item label="所属分组" name="pid" extra={groups.length === 0 ? '还没有分组控件' : undefined}>
              <Select options={[{ value: 0, label: '不分组' }, ...groups.map((g) => ({ value: g.cbTacid, label: g.name }))]} />
            </Form.Item>
          </Col>
        )}
        {!isStatic && (
          <Col span={12}>
            <Form.Item label="提示文字" name="dmDesc" rules={[zodRule(fields.dmDesc)]} tooltip="输入框里的灰色提示文字">
              <Input placeholder={`不填则显示“${placeholderOf({ ...draft, dmDesc: '' })}”`} maxLength={50} />
            </Form.Item>
          </Col>
        )}
        <Col span={12}>
          <Form.Item label="排序" name="sortNum" tooltip="数字越小越靠前；也可以在列表里上移、下移">
            <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="状态" name="actionState">
            <Radio.Group
              options={[
                { value: 0, label: '可用' },
                { value: 1, label: '禁用' },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>

      {OPTION_KINDS.includes(dmType) && <OptionListField />}

      {TREE_KINDS.includes(dmType) && (
        <Form.Item
          label="级联选项"
          name="tree"
          required
          extra="每个选项可以添加子选项；值用于保存客户资料，保存后不能修改"
          rules={[
            {
              validator: async (_, tree: EditorOption[] | undefined) => {
                const problem = treeProblem(tree ?? []);
                if (problem) throw new Error(problem);
              },
            },
          ]}
        >
          <TreeOptionsEditor lockedValues={lockedValues} />
        </Form.Item>
      )}

      {isStatic && (
        <Form.Item label="说明文字" name="staticText" rules={[zodRule(fields.staticText)]}>
          <Input.TextArea placeholder="显示在客户表单中的说明" maxLength={500} showCount autoSize={{ minRows: 3, maxRows: 6 }} />
        </Form.Item>
      )}

      <Space size={24} wrap style={{ marginBottom: 8 }}>
        {SWITCHES.filter((w) => w.isShown(dmType)).map((w) => (
          <Form.Item
            key={w.name}
            label={w.label}
            name={w.name}
            valuePropName="checked"
            tooltip={w.tooltip}
            style={{ marginBottom: 8 }}
          >
            <Switch />
          </Form.Item>
        ))}
      </Space>
    </FormModal>
  );
};
