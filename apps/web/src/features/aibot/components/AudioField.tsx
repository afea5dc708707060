import { DeleteOutlined, SoundOutlined, UploadOutlined } from '@ant-design/icons';
import { extensionOf, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { App, Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { http } from '../../../api/http';

const AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a'];
/** Names of recordings uploaded in this page's life (the graph keeps only the file id). */
const uploadedNames = new Map<number, string>();

type Props = { value: number | null; onChange: (id: number | null) => void; isReadOnly?: boolean };

/** An optional recording (uploads API) the bot plays instead of synthesizing the text. */
export const AudioField = ({ value, onChange, isReadOnly }: Props) => {
  const { message } = App.useApp();
  const [isUploading, setUploading] = useState(false);
  if (value !== null) {
    return (
      <Space>
        <SoundOutlined style={{ color: '#1677ff' }} />
        <Typography.Text>{uploadedNames.get(value) ?? `录音文件 #${value}`}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          播放录音，不再合成文字
        </Typography.Text>
        {!isReadOnly && (
          <Button size="small" type="link" danger icon={<DeleteOutlined />} onClick={() => onChange(null)}>
            移除
          </Button>
        )}
      </Space>
    );
  }
  return (
    <Upload
      accept={AUDIO_EXTENSIONS.map((e) => `.${e}`).join(',')}
      showUploadList={false}
      disabled={isReadOnly}
      beforeUpload={(file) => {
        if (!AUDIO_EXTENSIONS.includes(extensionOf(file.name))) {
          message.error('录音只支持 wav、mp3、m4a 格式');
          return Upload.LIST_IGNORE;
        }
        if (file.size > UPLOAD_MAX_BYTES) {
          message.error('文件大小超出限制');
          return Upload.LIST_IGNORE;
        }
        return true;
      }}
      customRequest={async ({ file }) => {
        if (!(file instanceof File)) return;
        const form = new FormData();
        form.append('scene', 'aibot');
        form.append('file', file, file.name);
        setUploading(true);
        try {
          const res = await http.upload<UploadResult>('/api/frontend/upload/file', form);
          uploadedNames.set(res.id, res.name);
          onChange(res.id);
        } catch {
          // the http client has shown the server's message
        } finally {
          setUploading(false);
        }
      }}
    >
      <Button icon={<UploadOutlined />} loading={isUploading} disabled={isReadOnly}>
        上传录音
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }}>
        可选，wav/mp3/m4a；不上传则按文字合成语音
      </Typography.Text>
    </Upload>
  );
};
