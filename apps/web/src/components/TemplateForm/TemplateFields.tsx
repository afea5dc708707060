import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import { Form, Typography } from 'antd';
import { ControlInput } from './ControlInput';
import { controlRules } from './control-rules';
import { controlFieldName } from './control-values';

type Props = {
  /** the controls to show, in order (groups carry their children) */
  controls: TemplateControl[];
  /** the designer's preview: uploads stay in the browser */
  isPreview?: boolean;
};

const ControlItem = ({ control: c, isPreview }: { control: TemplateControl; isPreview?: boolean }) => {
  if (c.dmType === DM_TYPE.staticText) {
    return (
      <Form.Item label={c.name}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0, whiteSpace: 'pre-wrap', paddingTop: 5 }}>
          {typeof c.dmValue === 'string' ? c.dmValue : ''}
        </Typography.Paragraph>
      </Form.Item>
    );
  }
  return (
    <Form.Item label={c.name} name={controlFieldName(c)} rules={controlRules(c)}>
      <ControlInput control={c} isPreview={isPreview} />
    </Form.Item>
  );
};

/**
 * The Form.Items of a customer template (SPEC §4 control kinds), for use inside an antd Form:
 * each control's value lives at `['c', String(cbTacid)]`; a group shows its own text input
 * and then its children, indented in a bordered block.
 */
export const TemplateFields = ({ controls, isPreview }: Props) => (
  <>
    {controls.map((c) =>
      c.dmType === DM_TYPE.group ? (
        <div key={c.cbTacid}>
          <ControlItem control={c} isPreview={isPreview} />
          {c.children?.length > 0 && (
            <div
              style={{
                margin: '-8px 0 24px 24px',
                padding: '16px 16px 0',
                border: '1px solid #f0f0f0',
                borderRadius: 8,
                background: '#fafafa',
              }}
            >
              {c.children.map((child) => (
                <ControlItem key={child.cbTacid} control={child} isPreview={isPreview} />
              ))}
            </div>
          )}
        </div>
      ) : (
        <ControlItem key={c.cbTacid} control={c} isPreview={isPreview} />
      ),
    )}
  </>
);
