import { InboxOutlined } from '@ant-design/icons';
import { PRODUCT_IMPORT_HEADERS, PRODUCT_LIMITS, type UploadResult } from '@crm/contracts';
import { App, Button, Modal, Progress, Result, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { http } from '../../../api/http';
import { type ProductImportResult, useImportProducts } from '../api';

type Phase =
  | { step: 'choose' }
  | { step: 'running'; percent: number; text: string }
  | { step: 'done'; result: ProductImportResult };

/**
 * 导入产品 (.xlsx, at most 5,000 rows): the file is uploaded (progress), then imported at once;
 * the result lists the refused rows with their reason.
 */
export const ProductImportModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { message } = App.useApp();
  const importProducts = useImportProducts();
  const [phase, setPhase] = useState<Phase>({ step: 'choose' });

  const run = async (file: File) => {
    if (!file.name.toLowerCase().endsWith('.xlsx')) {
      message.error('文件格式不正确');
      return;
    }
    setPhase({ step: 'running', percent: 30, text: '正在上传文件…' });
    try {
      const form = new FormData();
      form.append('file', file, file.name);
      const uploaded = await http.upload<UploadResult>('/api/frontend/upload/file', form);
      setPhase({ step: 'running', percent: 70, text: '正在导入产品…' });
      const result = await importProducts.mutateAsync(uploaded.id);
      setPhase({ step: 'done', result });
    } catch {
      setPhase({ step: 'choose' }); // the http client has shown the message
    }
  };

  const close = () => {
    setPhase({ step: 'choose' });
    onClose();
  };

  return (
    <Modal
      title="导入产品"
      open={open}
      onCancel={close}
      mask={{ closable: false }}
      width={640}
      destroyOnHidden
      footer={
        <Button type="primary" disabled={phase.step === 'running'} onClick={close}>
          {phase.step === 'done' ? '完成' : '关闭'}
        </Button>
      }
    >
      {phase.step === 'choose' && (
        <>
          <Upload.Dragger
            accept=".xlsx"
            showUploadList={false}
            beforeUpload={(f) => {
              void run(f);
              return false;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">点击或拖拽 .xlsx 文件到此处</p>
            <p className="ant-upload-hint">单次最多 {PRODUCT_LIMITS.importRows} 行</p>
          </Upload.Dragger>
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
            第一行为表头，列依次为：{PRODUCT_IMPORT_HEADERS.join('、')}。金额以元填写，最多3位小数；状态填“上架”或“下架”。
          </Typography.Paragraph>
        </>
      )}
      {phase.step === 'running' && (
        <div style={{ padding: '24px 8px' }}>
          <Progress percent={phase.percent} status="active" />
          <Typography.Text type="secondary">{phase.text}</Typography.Text>
        </div>
      )}
      {phase.step === 'done' && (
        <>
          <Result
            status={phase.result.failed.length > 0 ? 'warning' : 'success'}
            title="导入完成"
            subTitle={`成功导入 ${phase.result.added} 个产品${phase.result.failed.length > 0 ? `，${phase.result.failed.length} 行未导入` : ''}`}
          />
          {phase.result.failed.length > 0 && (
            <Table
              size="small"
              rowKey="row"
              pagination={{ pageSize: 5, hideOnSinglePage: true }}
              dataSource={phase.result.failed}
              columns={[
                { title: '行号', dataIndex: 'row', width: 80 },
                { title: '原因', dataIndex: 'reason' },
              ]}
            />
          )}
        </>
      )}
    </Modal>
  );
};
