import type { FlowDetail } from '@crm/contracts';
import { Button, Drawer, Empty, Skeleton, Table, Tag } from 'antd';
import { useState } from 'react';
import { useFlowVersion } from '../api';
import type { DesignerTab } from '../flowEdit';
import { FlowOutline } from './FlowOutline';
import { SettingsTab } from './SettingsTab';

type Props = { open: boolean; onClose: () => void; flow: FlowDetail };

/** A frozen version, read-only: what calls that started on it follow. */
const VersionView = ({ flow, version, onClose }: { flow: FlowDetail; version: number | null; onClose: () => void }) => {
  const detail = useFlowVersion(flow.id, version);
  const [tab, setTab] = useState<DesignerTab>('nodes');
  const [selected, setSelected] = useState<string | null>(null);
  const graph = detail.data?.graph;
  return (
    <Drawer
      title={`${flow.name} · v${version ?? ''}（只读）`}
      open={version !== null}
      onClose={onClose}
      size={1180}
      destroyOnHidden
      extra={<Tag color="blue">已发布版本不可修改，修改请编辑草稿后重新发布</Tag>}
    >
      {graph ? (
        <FlowOutline
          graph={graph}
          tab={tab}
          onTab={setTab}
          selected={selected}
          onSelect={setSelected}
          settings={
            <SettingsTab
              name={flow.name}
              remark={flow.remark}
              settings={graph.settings}
              onInfo={() => undefined}
              onChange={() => undefined}
            />
          }
        />
      ) : detail.isError ? (
        <Empty description="版本加载失败" />
      ) : (
        <Skeleton active paragraph={{ rows: 10 }} />
      )}
    </Drawer>
  );
};

/** 版本记录: each published version, who published it and when. */
export const VersionsDrawer = ({ open, onClose, flow }: Props) => {
  const [viewing, setViewing] = useState<number | null>(null);
  return (
    <Drawer title="版本记录" open={open} onClose={onClose} size={520}>
      <Table
        rowKey="version"
        size="small"
        pagination={false}
        dataSource={[...flow.versions].sort((a, b) => b.version - a.version)}
        locale={{ emptyText: <Empty description="尚未发布，发布后生成 v1" /> }}
        columns={[
          {
            title: '版本',
            dataIndex: 'version',
            width: 80,
            render: (v: number) => (
              <>
                v{v} {v === flow.version && <Tag color="success">当前</Tag>}
              </>
            ),
          },
          { title: '发布时间', dataIndex: 'published_at', width: 170 },
          { title: '发布人', dataIndex: 'publisher', ellipsis: true },
          {
            title: '操作',
            key: 'view',
            width: 70,
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setViewing(r.version)}>
                查看
              </Button>
            ),
          },
        ]}
      />
      <VersionView flow={flow} version={viewing} onClose={() => setViewing(null)} />
    </Drawer>
  );
};
