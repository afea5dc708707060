import { DeleteOutlined } from '@ant-design/icons';
import { FOLLOW_CATEGORIES, FOLLOW_LIMITS, FOLLOW_TYPE, type FollowRecord } from '@crm/contracts';
import { Button, DatePicker, Empty, Pagination, Space, Spin, Tabs, Tag, Timeline, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { unixText } from '../../../components/shanghaiTime';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { hasPermission, useSession } from '../../../stores/session';
import { AiCallDetailModal } from '../../aicall/components/AiCallDetailModal';
import { useDeleteFollow, useFollowList } from '../api';

const duration = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;

const TYPE_TAG: Record<number, { text: string; color: string }> = {
  [FOLLOW_TYPE.discard]: { text: '丢入公海', color: 'orange' },
  [FOLLOW_TYPE.claim]: { text: '公海领取', color: 'cyan' },
  [FOLLOW_TYPE.call]: { text: '电话', color: 'blue' },
  [FOLLOW_TYPE.ai]: { text: 'AI跟进', color: 'purple' },
};
const WRITTEN_TAG = { text: '写跟进', color: 'green' };

/** What one record says, in the words of its follow type (SPEC §4). */
const RecordBody = ({ r, onAiCall }: { r: FollowRecord; onAiCall: (id: number) => void }) => {
  switch (r.followType) {
    case FOLLOW_TYPE.call:
      return (
        <Space direction="vertical" size={4}>
          <Typography.Text>
            {r.billsec > 0 ? `已接通，通话时长 ${duration(r.billsec)}` : '未接通'}
            {r.remark ? `（${r.remark}）` : ''}
          </Typography.Text>
          {r.recordFile && (
            // its length shows before it is played (not 0:00 / 0:00, issue 23): only the file's header is
            // read, for the page's 10 records at most
            // biome-ignore lint/a11y/useMediaCaption: call recordings have no captions
            <audio controls preload="metadata" src={r.recordFile} style={{ height: 32 }} />
          )}
        </Space>
      );
    case FOLLOW_TYPE.ai:
      // SPEC §4: an AI follow links to the AI call detail (record_id holds the AI call's id)
      return (
        <Space size={8} wrap>
          <Typography.Text>{r.remark || 'AI外呼跟进'}</Typography.Text>
          {Number(r.record_id) > 0 && (
            <Typography.Link onClick={() => onAiCall(Number(r.record_id))} data-testid="ai-follow-detail">
              查看详情
            </Typography.Link>
          )}
        </Space>
      );
    case FOLLOW_TYPE.discard:
      return <Typography.Text>丢入公海{r.remark ? `，理由：${r.remark}` : ''}</Typography.Text>;
    case FOLLOW_TYPE.claim:
      return <Typography.Text>从公海领取{r.remark ? `：${r.remark}` : ''}</Typography.Text>;
    default:
      return (
        <Space direction="vertical" size={2}>
          {r.remark && (
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>{r.remark}</Typography.Paragraph>
          )}
          {r.templateControls.map((c) => (
            <Typography.Text key={c.cbTacid} type="secondary">
              {c.name}：{(c.dmValueText.length ? c.dmValueText : c.dmValue).join(c.dmType === 11 ? ' / ' : '、')}
            </Typography.Text>
          ))}
          {r.nextFollowTime > 0 && <Typography.Text type="secondary">下次跟进：{unixText(r.nextFollowTime)}</Typography.Text>}
        </Space>
      );
  }
};

/** The follow history: category tabs, a day range within one month, a timeline, 10 per page (SPEC §2, §9). */
export const FollowHistory = ({
  cmCtid,
  category,
  onCategory,
}: {
  cmCtid: number;
  category: number;
  onCategory: (c: number) => void;
}) => {
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [aiCallId, setAiCallId] = useState<number | null>(null);
  const permissions = useSession((s) => s.permissions);
  const canDelete = hasPermission(permissions, 'frontend/customer/followdel');
  const confirmDelete = useConfirmDelete();
  const remove = useDeleteFollow(cmCtid);
  const { data, isFetching } = useFollowList({
    cmCtid,
    followType: category,
    startTime: range?.[0].format('YYYY-MM-DD'),
    endTime: range?.[1].format('YYYY-MM-DD'),
    page,
    limit: FOLLOW_LIMITS.pageSize,
  });
  const list = data?.list ?? [];

  return (
    <div className="follow-history">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center" wrap>
        <Tabs
          activeKey={String(category)}
          onChange={(k) => {
            onCategory(Number(k));
            setPage(1);
          }}
          items={FOLLOW_CATEGORIES.map((c) => ({ key: String(c.value), label: c.label }))}
          style={{ marginBottom: 0 }}
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(v) => {
            setRange(v && v[0] && v[1] ? [v[0], v[1]] : null);
            setPage(1);
          }}
          // SPEC §5: the range stays within the month of its first day.
          disabledDate={(d, info) => (info.from ? !d.isSame(info.from, 'month') : false)}
          placeholder={['开始日期', '结束日期']}
          allowClear
        />
      </Space>
      <Spin spinning={isFetching}>
        {list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无跟进记录" style={{ margin: '24px 0' }} />
        ) : (
          <Timeline
            style={{ marginTop: 16 }}
            items={list.map((r) => {
              const tag = TYPE_TAG[r.followType] ?? WRITTEN_TAG;
              return {
                key: r.cmCtfid,
                color: tag.color,
                children: (
                  <div className="follow-item" data-testid="follow-item">
                    <Space size={8} wrap>
                      <Typography.Text strong>{r.cmSidName || '系统'}</Typography.Text>
                      <Tag color={tag.color}>{tag.text}</Tag>
                      {r.cmNidName && <Tag>{r.cmNidName}</Tag>}
                      <Typography.Text type="secondary">{unixText(r.createTime)}</Typography.Text>
                      {canDelete && r.isDelete === 1 && (
                        <Button
                          type="link"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          onClick={() => confirmDelete(() => remove.mutateAsync(r.cmCtfid))}
                        >
                          删除
                        </Button>
                      )}
                    </Space>
                    <div style={{ marginTop: 4 }}>
                      <RecordBody r={r} onAiCall={setAiCallId} />
                    </div>
                  </div>
                ),
              };
            })}
          />
        )}
      </Spin>
      {(data?.count ?? 0) > FOLLOW_LIMITS.pageSize && (
        <Pagination
          size="small"
          align="end"
          current={page}
          pageSize={FOLLOW_LIMITS.pageSize}
          total={data?.count ?? 0}
          onChange={setPage}
          showSizeChanger={false}
          showTotal={(n) => `共 ${n} 条`}
        />
      )}
      <AiCallDetailModal id={aiCallId} onClose={() => setAiCallId(null)} />
    </div>
  );
};
