import { RightOutlined } from '@ant-design/icons';
import type { WorkStage } from '@crm/contracts';
import { Space, Tag } from 'antd';

/** The stages in order as tags joined by arrows; a 可回退 stage is marked. */
export const StageChain = ({ stages }: { stages: WorkStage[] }) => (
  <Space size={2} wrap>
    {[...stages]
      .sort((a, b) => a.sort - b.sort)
      .map((s, i) => (
        <Space key={s.id} size={2}>
          {i > 0 && <RightOutlined style={{ fontSize: 10, color: 'rgba(0,0,0,0.35)' }} />}
          <Tag color={i === stages.length - 1 ? 'green' : 'blue'} style={{ marginInlineEnd: 0 }}>
            {s.name}
            {s.rollback && <span style={{ opacity: 0.65 }}>（可回退）</span>}
          </Tag>
        </Space>
      ))}
  </Space>
);
