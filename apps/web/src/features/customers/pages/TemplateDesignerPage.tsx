import { EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Row, Space, Switch, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { enabledControls, TemplatePreview } from '../../../components/TemplateForm';
import { useModalTarget } from '../../../components/useModalTarget';
import { CustomerFormModal, CustomerNameItem } from '../components/CustomerFormModal';
import { ControlFormModal } from '../components/designer/ControlFormModal';
import { ControlTable } from '../components/designer/ControlTable';
import type { ControlFormTarget } from '../components/designer/controlValues';
import { useSetMustName, useTemplateDesign } from '../templates-api';

/**
 * /client/clienttemplate: the company's customer form. Left, the controls with their flags,
 * state and order; right, the form exactly as the customer modal will show it.
 */
export const TemplateDesignerPage = () => {
  const { message } = App.useApp();
  const design = useTemplateDesign();
  const setMustName = useSetMustName();
  const controls = useMemo(() => design.data?.templateControls ?? [], [design.data]);
  const shown = useMemo(() => enabledControls(controls), [controls]);
  const isMustName = design.data?.isMustName === 1;
  const formModal = useModalTarget<ControlFormTarget>();
  const [isCustomerOpen, setCustomerOpen] = useState(false);

  const toggleMustName = async (isOn: boolean) => {
    try {
      await setMustName.mutateAsync(isOn ? 1 : 0);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('保存成功');
  };

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card
            title="模板控件"
            extra={
              <Space size={16}>
                <Space size={8}>
                  <Typography.Text>客户名称必填</Typography.Text>
                  <Switch
                    aria-label="客户名称必填"
                    checked={isMustName}
                    loading={setMustName.isPending}
                    disabled={!design.data}
                    onChange={toggleMustName}
                  />
                </Space>
                <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'create' })}>
                  添加控件
                </Button>
              </Space>
            }
          >
            <ControlTable
              controls={controls}
              isLoading={design.isLoading}
              onEdit={(control) => formModal.open({ mode: 'edit', control })}
              onAddChild={(group) => formModal.open({ mode: 'create', pid: group.cbTacid })}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card
            title="实时预览"
            extra={
              <Button icon={<EyeOutlined />} onClick={() => setCustomerOpen(true)} disabled={!design.data}>
                预览新增客户
              </Button>
            }
          >
            <Typography.Paragraph type="secondary">
              新增、编辑客户时看到的表单（只显示可用的控件）。这里可以试填，不会保存。
            </Typography.Paragraph>
            <TemplatePreview controls={shown} leading={<CustomerNameItem isRequired={isMustName} />} />
          </Card>
        </Col>
      </Row>
      <ControlFormModal
        key={formModal.openKey}
        isOpen={formModal.isOpen}
        target={formModal.target}
        controls={controls}
        onClose={formModal.close}
      />
      <CustomerFormModal open={isCustomerOpen} mode="add" onClose={() => setCustomerOpen(false)} />
    </>
  );
};
