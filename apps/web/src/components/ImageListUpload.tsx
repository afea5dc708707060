import { PlusOutlined } from '@ant-design/icons';
import { extensionOf, IMAGE_EXTENSIONS, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { App, Image, Upload, type UploadFile, type UploadProps } from 'antd';
import { useRef, useState } from 'react';
import { http } from '../api/http';
import type { UploadedImage } from './ImageUpload';

type Props = {
  value?: UploadedImage[];
  onChange?: (value: UploadedImage[]) => void;
  /** SPEC §9: 9 images on a deal order */
  max?: number;
  id?: string;
};

const ACCEPT = IMAGE_EXTENSIONS.map((e) => `.${e}`).join(',');
const UPLOAD_URL = '/api/frontend/upload/file';

/**
 * Several pictures (a deal order's images): png/jpg/jpeg only (SPEC §5 文件格式不正确), each
 * uploaded at once to the tenant's file store, previewed in place. The form value is the list
 * of stored images.
 */
export const ImageListUpload = ({ value, onChange, max = 9, id }: Props) => {
  const { message } = App.useApp();
  const [pending, setPending] = useState<{ uid: string; name: string }[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const images = value ?? [];
  // Files chosen together arrive before any state update: the latest list lives here.
  const latest = useRef(images);
  latest.current = images;
  const taken = images.length + pending.length;

  const fileList: UploadFile[] = [
    ...images.map((f): UploadFile => ({ uid: `i${f.id}`, name: f.name || '图片', status: 'done', url: f.url })),
    ...pending.map((p): UploadFile => ({ uid: p.uid, name: p.name, status: 'uploading', percent: 50 })),
  ];

  const beforeUpload: UploadProps['beforeUpload'] = (file, batch) => {
    if (taken + batch.indexOf(file) >= max) {
      if (batch.indexOf(file) === batch.length - 1) message.warning(`最多上传${max}张图片`);
      return Upload.LIST_IGNORE;
    }
    if (!(IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) {
      message.error('文件格式不正确');
      return Upload.LIST_IGNORE;
    }
    if (file.size > UPLOAD_MAX_BYTES) {
      message.error('文件大小超出限制');
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = async ({ file, onSuccess, onError }) => {
    if (!(file instanceof File)) return;
    const uid = (file as File & { uid?: string }).uid ?? `${Date.now()}`;
    setPending((p) => [...p, { uid, name: file.name }]);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const res = await http.upload<UploadResult>(UPLOAD_URL, form);
      latest.current = [...latest.current, { id: res.id, url: res.url, name: res.name }];
      onChange?.(latest.current);
      onSuccess?.(res);
    } catch (err) {
      onError?.(err as Error); // the http client has shown the message
    } finally {
      setPending((p) => p.filter((x) => x.uid !== uid));
    }
  };

  return (
    <>
      <Upload
        id={id}
        multiple
        listType="picture-card"
        accept={ACCEPT}
        fileList={fileList}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onPreview={(f) => setPreview(f.url ?? null)}
        onRemove={(f) => {
          onChange?.(images.filter((x) => `i${x.id}` !== f.uid));
          return false;
        }}
      >
        {taken >= max ? null : (
          <button type="button" style={{ border: 0, background: 'none', cursor: 'pointer' }}>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>
              上传图片 {images.length}/{max}
            </div>
          </button>
        )}
      </Upload>
      {preview && (
        <Image
          style={{ display: 'none' }}
          src={preview}
          alt="预览"
          preview={{ open: true, onOpenChange: (open) => !open && setPreview(null) }}
        />
      )}
    </>
  );
};
