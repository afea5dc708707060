import { UploadOutlined } from '@ant-design/icons';
import { extensionOf, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { App, Button, Upload } from 'antd';
import { useState } from 'react';
import { uploadNumberFile } from '../api';

type Props = { value?: UploadResult | null; onChange?: (file: UploadResult | null) => void };

const ACCEPTED = ['xlsx', 'txt'];

/** One .xlsx or .txt number file, uploaded at once; the form value is the stored file. */
export const NumberFileInput = ({ value, onChange }: Props) => {
  const { message } = App.useApp();
  const [isUploading, setUploading] = useState(false);
  return (
    <Upload
      accept=".xlsx,.txt"
      maxCount={1}
      fileList={value ? [{ uid: String(value.id), name: value.name, status: 'done' }] : []}
      onRemove={() => onChange?.(null)}
      beforeUpload={(file) => {
        if (!ACCEPTED.includes(extensionOf(file.name))) {
          message.error('请上传 .xlsx 或 .txt 文件');
          return Upload.LIST_IGNORE;
        }
        if (file.size > UPLOAD_MAX_BYTES) {
          message.error('文件大小超出限制');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={async ({ file }) => {
        setUploading(true);
        try {
          onChange?.(await uploadNumberFile(file as File));
        } catch {
          // the http client has shown the message
        } finally {
          setUploading(false);
        }
      }}
    >
      <Button icon={<UploadOutlined />} loading={isUploading}>
        选择文件
      </Button>
    </Upload>
  );
};
