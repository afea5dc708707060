import { PaperClipOutlined } from '@ant-design/icons';
import { extensionOf, IMAGE_EXTENSIONS, WORK_ORDER_LIMITS, type WorkEvent } from '@crm/contracts';
import { App, Button, Empty, Image, Input, Space, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import type { StoredFile } from '../../../components/TemplateForm/control-values';
import { FileListUpload } from '../../../components/TemplateForm/FileListUpload';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCommentWorkOrder } from '../api';
import { eventFromTo } from './workOrderRules';

const KIND_COLOR: Record<string, string> = {
  created: 'blue',
  edited: 'gray',
  transition: 'green',
  rollback: 'orange',
  comment: 'blue',
  transfer: 'purple',
  overdue: 'red',
};

const isImage = (name: string) => (IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(name));

const EventFiles = ({ files }: { files: WorkEvent['files'] }) => {
  const images = files.filter((f) => isImage(f.name));
  const others = files.filter((f) => !isImage(f.name));
  return (
    <>
      {images.length > 0 && (
        <Image.PreviewGroup>
          <Space wrap size={8} style={{ marginTop: 6 }}>
            {images.map((f) => (
              <Image key={f.id} src={f.url} alt={f.name} width={72} height={72} style={{ objectFit: 'cover' }} />
            ))}
          </Space>
        </Image.PreviewGroup>
      )}
      {others.length > 0 && (
        <Space orientation="vertical" size={0} style={{ display: 'flex', marginTop: 4 }}>
          {others.map((f) => (
            <Typography.Link key={f.id} href={f.url} target="_blank" download={f.name}>
              <PaperClipOutlined /> {f.name}
            </Typography.Link>
          ))}
        </Space>
      )}
    </>
  );
};

/** The append-only thread of a work order, oldest first (creation, edits, stage moves, comments, transfers). */
export const WorkOrderThread = ({ events }: { events: WorkEvent[] }) =>
  events.length === 0 ? (
    <Empty description="暂无记录" image={Empty.PRESENTED_IMAGE_SIMPLE} />
  ) : (
    <Timeline
      items={events.map((e) => ({
        key: e.id,
        color: KIND_COLOR[e.kind] ?? 'gray',
        content: (
          <div data-testid="work-event">
            <Space size={8} wrap>
              <Tag color={KIND_COLOR[e.kind] ?? 'default'}>{e.kind_name}</Tag>
              <Typography.Text strong>{e.staff_name || '系统'}</Typography.Text>
              <Typography.Text type="secondary">{e.created_at}</Typography.Text>
            </Space>
            {(e.from_name || e.to_name) && <div style={{ marginTop: 4 }}>{eventFromTo(e)}</div>}
            {e.content && (
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '4px 0 0' }}>{e.content}</Typography.Paragraph>
            )}
            {e.files.length > 0 && <EventFiles files={e.files} />}
          </div>
        ),
      }))}
    />
  );

/** 评论: text (≤500) and/or attachments (≤5), at least one of them. */
export const WorkOrderCommentBox = ({ id }: { id: number }) => {
  const { message } = App.useApp();
  const comment = useCommentWorkOrder();
  const [content, setContent] = useState('');
  const [files, setFiles] = useState<StoredFile[]>([]);
  const [error, setError] = useState('');
  const [submit, isLocked] = useButtonLock(async () => {
    const text = content.trim();
    if (!text && files.length === 0) {
      setError('请输入评论内容或上传附件');
      return;
    }
    try {
      await comment.mutateAsync({ id, content: text, files: files.map((f) => f.id) });
    } catch {
      return;
    }
    message.success('评论成功');
    setContent('');
    setFiles([]);
    setError('');
  });
  return (
    <div style={{ borderTop: '1px solid #f0f0f0', paddingTop: 16 }}>
      <Input.TextArea
        aria-label="评论内容"
        value={content}
        onChange={(e) => {
          setContent(e.target.value);
          setError('');
        }}
        placeholder="写评论，说明处理进展…"
        rows={3}
        maxLength={WORK_ORDER_LIMITS.comment}
        showCount
        status={error ? 'error' : undefined}
      />
      {error && <Typography.Text type="danger">{error}</Typography.Text>}
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', marginTop: 24, gap: 12 }}>
        <div style={{ flex: 1, minWidth: 0 }}>
          <FileListUpload
            value={files}
            onChange={(f) => {
              setFiles(f);
              setError('');
            }}
            placeholder="添加附件"
          />
        </div>
        <Button type="primary" onClick={submit} loading={comment.isPending} disabled={isLocked && !comment.isPending}>
          发表评论
        </Button>
      </div>
    </div>
  );
};
