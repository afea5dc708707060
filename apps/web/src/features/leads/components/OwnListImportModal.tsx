import { InboxOutlined } from '@ant-design/icons';
import { LEAD_LIMITS, leadOwnImportBody } from '@crm/contracts';
import { Alert, App, Button, Form, Input, Modal, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { doneFooter } from '../../../components/doneFooter';
import { requiredRule, zodRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { uploadFile } from '../api';
import { type OwnImportResult, useImportOwnList } from '../settings-api';

const COLUMNS_HINT = '企业名称（必填）、统一社会信用代码、法定代表人、电话、地址、注册资本（万元）、成立日期';

/** The import's answer: rows imported, rows skipped and why (the server lists at most 200 reasons). */
const ImportReport = ({ result }: { result: OwnImportResult }) => (
  <>
    <Alert
      type={result.rejected > 0 ? 'warning' : 'success'}
      showIcon
      title={`已导入 ${result.imported} 家企业${result.rejected > 0 ? `，${result.rejected} 行未导入` : ''}`}
      style={{ marginBottom: 16 }}
    />
    {result.reasons.length > 0 && (
      <Table
        size="small"
        rowKey="row"
        dataSource={result.reasons}
        pagination={result.reasons.length > 8 ? { pageSize: 8, size: 'small', showSizeChanger: false } : false}
        columns={[
          { title: '行号', dataIndex: 'row', width: 90 },
          { title: '未导入原因', dataIndex: 'reason' },
        ]}
      />
    )}
    {result.rejected > result.reasons.length && (
      <Typography.Text type="secondary">只列出前 {result.reasons.length} 行的原因</Typography.Text>
    )}
  </>
);

type FormValues = { name: string };

/** 导入名单: a name and an .xlsx (header row, 企业名称 required); then the import's report. */
export const OwnListImportModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState('');
  const [result, setResult] = useState<OwnImportResult | null>(null);
  const importList = useImportOwnList();

  const close = () => {
    if (!result) form.resetFields(); // with the report shown the form is gone (reset after the import)
    setFile(null);
    setFileError('');
    setResult(null);
    onClose();
  };

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!file) setFileError('请上传名单文件');
    if (!values || !file) return;
    try {
      const { id: fileId } = await uploadFile(file);
      const answer = await importList.mutateAsync({ name: values.name.trim(), fileId });
      form.resetFields();
      setResult(answer);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success('导入成功');
  });

  return (
    <Modal
      open={open}
      title="导入名单"
      width={600}
      onCancel={close}
      destroyOnHidden
      maskClosable={false}
      footer={
        result
          ? doneFooter(close)
          : [
              <Button key="cancel" onClick={close}>
                取消
              </Button>,
              <Button key="ok" type="primary" loading={isLocked} onClick={submit}>
                导入
              </Button>,
            ]
      }
    >
      {result ? (
        <ImportReport result={result} />
      ) : (
        <Form form={form} name="ownListImportForm" layout="vertical">
          <Form.Item label="名单名称" name="name" rules={[requiredRule('请输入名单名称'), zodRule(leadOwnImportBody.shape.name)]}>
            <Input placeholder="例如 2026 展会名单" maxLength={LEAD_LIMITS.ownListName} showCount />
          </Form.Item>
          <Form.Item
            label="名单文件"
            required
            validateStatus={fileError ? 'error' : undefined}
            help={fileError || undefined}
            extra={`第一行为表头，可包含：${COLUMNS_HINT}；最多 ${LEAD_LIMITS.ownListMaxRows} 行。导入的企业只有本公司可以查到。`}
          >
            <Upload.Dragger
              accept=".xlsx"
              maxCount={1}
              beforeUpload={(f) => {
                if (!f.name.toLowerCase().endsWith('.xlsx')) {
                  message.error('仅支持 .xlsx 格式的文件');
                  return Upload.LIST_IGNORE;
                }
                setFile(f);
                setFileError('');
                return false;
              }}
              onRemove={() => setFile(null)}
              fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined />
              </p>
              <p className="ant-upload-text">点击或拖入 .xlsx 文件</p>
            </Upload.Dragger>
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
};
