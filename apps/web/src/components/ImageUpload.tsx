import { PlusOutlined } from '@ant-design/icons';
import { extensionOf, IMAGE_EXTENSIONS, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { App, Image, Upload, type UploadFile, type UploadProps } from 'antd';
import { useState } from 'react';
import { http } from '../api/http';

export type UploadedImage = { id: number; url: string; name?: string };

type Props = {
  /** Form-controlled: the stored file (id for the API, url for <img>) or null. */
  value?: UploadedImage | null;
  onChange?: (value: UploadedImage | null) => void;
  /** Label of the empty picture box. */
  label?: string;
  disabled?: boolean;
};

const ACCEPT = IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',');
const UPLOAD_URL = '/api/frontend/upload/file';

/**
 * One picture (avatar, logo) uploaded to the tenant's file store. The extension is checked
 * here first (SPEC §5 不支持的文件格式) and again by the server; the returned URL works in
 * <img> because the token cookie travels with it.
 */
export const ImageUpload = ({ value, onChange, label = '上传图片', disabled }: Props) => {
  const { message } = App.useApp();
  const [uploadingName, setUploadingName] = useState<string | null>(null);
  const [isPreviewOpen, setPreviewOpen] = useState(false);

  const fileList: UploadFile[] = value
    ? [{ uid: String(value.id), name: value.name || '图片', status: 'done', url: value.url }]
    : uploadingName
      ? [{ uid: 'uploading', name: uploadingName, status: 'uploading', percent: 60 }]
      : [];

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (value || uploadingName) {
      message.warning('请先移除已有文件再进行选择');
      return Upload.LIST_IGNORE;
    }
    if (!(IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
      message.error('不支持的文件格式');
      return Upload.LIST_IGNORE;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      message.error('文件大小超出限制');
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    if (!(file instanceof Blob)) return;
    const name = file instanceof File ? file.name : '图片';
    const form = new FormData();
    form.append('file', file, name);
    setUploadingName(name);
    try {
      const res = await http.upload<UploadResult>(UPLOAD_URL, form);
      onChange?.({ id: res.id, url: res.url, name: res.name });
      onSuccess?.(res);
    } catch (err) {
      onError?.(err as Error); // the http client has shown the message
    } finally {
      setUploadingName(null);
    }
  };

  return (
    <>
      <Upload
        listType="picture-card"
        accept={ACCEPT}
        maxCount={1}
        disabled={disabled}
        fileList={fileList}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onRemove={() => onChange?.(null)}
        onPreview={() => setPreviewOpen(true)}
      >
        {fileList.length > 0 ? null : (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>{label}</div>
          </button>
        )}
      </Upload>
      {value && (
        <Image
          style={{ display: 'none' }}
          src={value.url}
          alt={value.name || '图片'}
          preview={{ open: isPreviewOpen, onOpenChange: setPreviewOpen }}
        />
      )}
    </>
  );
};
