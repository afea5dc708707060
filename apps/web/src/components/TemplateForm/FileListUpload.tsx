import { UploadOutlined } from '@ant-design/icons';
import { extensionOf, UPLOAD_EXTENSIONS, UPLOAD_MAX_BYTES, UPLOAD_MAX_FILES, type UploadResult } from '@crm/contracts';
import { App, Button, Upload, type UploadFile, type UploadProps } from 'antd';
import { useRef, useState } from 'react';
import { http } from '../../api/http';
import type { StoredFile } from './control-values';

type Props = {
  value?: StoredFile[];
  onChange?: (value: StoredFile[]) => void;
  placeholder?: string;
  /** the designer's preview: files stay in the browser, nothing is uploaded */
  isPreview?: boolean;
  id?: string;
};

const ACCEPT = UPLOAD_EXTENSIONS.map((e) => `.${e}`).join(',');
const UPLOAD_URL = '/api/frontend/upload/file';

type Pending = { uid: string; name: string };

/** Preview files never reach the server: negative ids keep them apart. */
let previewSeq = 0;

/**
 * File control (kind 12): up to 5 files (SPEC §5), each uploaded at once; the form value is
 * the list of stored files, whose ids the customer keeps.
 */
export const FileListUpload = ({ value, onChange, placeholder, isPreview, id }: Props) => {
  const { message } = App.useApp();
  const [pending, setPending] = useState<Pending[]>([]);
  // Files chosen together arrive one by one before any state update: count them here.
  const taken = useRef(0);
  const files = value ?? [];
  taken.current = files.length + pending.length;
  // The latest list, for uploads that finish after other changes.
  const latest = useRef(files);
  latest.current = files;

  const fileList: UploadFile[] = [
    ...files.map((f): UploadFile => ({ uid: `f${f.id}`, name: f.name, status: 'done', url: f.url })),
    ...pending.map((p): UploadFile => ({ uid: p.uid, name: p.name, status: 'uploading', percent: 50 })),
  ];

  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    if (taken.current + batch.indexOf(file) >= UPLOAD_MAX_FILES) {
      if (batch.indexOf(file) === batch.length - 1 || taken.current >= UPLOAD_MAX_FILES)
        message.warning('请先移除已有文件再进行选择');
      return Upload.LIST_IGNORE;
    }
    if (!(UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
      message.error('不支持的文件格式');
      return Upload.LIST_IGNORE;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      message.error('文件大小超出限制');
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const add = (f: StoredFile) => {
    latest.current = [...latest.current, f];
    onChange?.(latest.current);
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    if (!(file instanceof File)) return;
    const uid = (file as File & { uid?: string }).uid ?? `${Date.now()}`;
    if (isPreview) {
      add({ id: -++previewSeq, name: file.name });
      onSuccess?.(null);
      return;
    }
    setPending((p) => [...p, { uid, name: file.name }]);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const res = await http.upload<UploadResult>(UPLOAD_URL, form);
      add({ id: res.id, name: res.name, url: res.url });
      onSuccess?.(res);
    } catch (err) {
      onError?.(err as Error); // the http client has shown the message
    } finally {
      setPending((p) => p.filter((x) => x.uid !== uid));
    }
  };

  const isFull = files.length + pending.length >= UPLOAD_MAX_FILES;
  return (
    <Upload
      id={id}
      multiple
      accept={ACCEPT}
      fileList={fileList}
      openFileDialogOnClick={!isFull}
      beforeUpload={beforeUpload}
      customRequest={customRequest}
      onRemove={(f) => {
        onChange?.(files.filter((x) => `f${x.id}` !== f.uid));
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} onClick={() => isFull && message.warning('请先移除已有文件再进行选择')}>
        {placeholder || '上传文件'}
      </Button>
      <span style={{ marginLeft: 8, color: 'rgba(0,0,0,0.45)' }} onClick={(e) => e.stopPropagation()}>
        最多{UPLOAD_MAX_FILES}个文件
      </span>
    </Upload>
  );
};
