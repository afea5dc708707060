import { DeleteOutlined, DownloadOutlined, SoundOutlined, UploadOutlined } from '@ant-design/icons';
import { extensionOf, UPLOAD_MAX_BYTES, type UploadResult } from '@crm/contracts';
import { App, Button, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { http } from '../../../api/http';

const AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a'];
/** Recordings by file id (the graph keeps only the id): the flow detail's, and those uploaded since. */
const recordings = new Map<number, { name: string; url: string }>();

/** Takes the recordings a flow detail names (audio_files), so the fields show their names. */
export const rememberRecordings = (files: { id: number; name: string; url: string }[]) => {
  for (const f of files) recordings.set(f.id, { name: f.name, url: f.url });
};

type Props = { value: number | null; onChange: (id: number | null) => void; isReadOnly?: boolean };

/** An optional recording (uploads API) the bot plays instead of synthesizing the text. */
export const AudioField = ({ value, onChange, isReadOnly }: Props) => {
  const { message } = App.useApp();
  const [isUploading, setUploading] = useState(false);
  if (value !== null) {
    const file = recordings.get(value);
    return (
      <Space size={4} wrap>
        <SoundOutlined style={{ color: '#1677ff' }} />
        <Typography.Text ellipsis={{ tooltip: true }} style={{ maxWidth: 220 }}>
          {file?.name ?? '已上传的录音'}
        </Typography.Text>
        {file && (
          <Button size="small" type="link" icon={<DownloadOutlined />} href={file.url} download={file.name}>
            下载
          </Button>
        )}
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
          recordings.set(res.id, { name: res.name, url: res.url });
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
