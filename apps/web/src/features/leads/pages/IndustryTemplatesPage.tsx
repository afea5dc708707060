import { DeleteOutlined, EditOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { LeadTemplate } from '@crm/contracts';
import { Button, Card, Col, Empty, Result, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useDeleteTemplate, useLeadTemplates } from '../api';
import { describeFilters } from '../components/leadFilters';
import { TemplateFormModal, type TemplateTarget } from '../components/TemplateFormModal';

/** /jingxiansuo/industry 行业模板: the starter set and the company's own presets; one click runs one in 找线索. */
export const IndustryTemplatesPage = () => {
  const navigate = useNavigate();
  const templates = useLeadTemplates();
  const remove = useDeleteTemplate();
  const confirmDelete = useConfirmDelete();
  const [target, setTarget] = useState<TemplateTarget | null>(null);

  const run = (t: LeadTemplate) => {
    const params = new URLSearchParams({ filters: JSON.stringify(t.filters), template: t.name });
    navigate(`/jingxiansuo/advanced?${params}`);
  };

  const card = (t: LeadTemplate) => (
    <Col key={t.id} xs={24} md={12} xl={8}>
      <Card
        size="small"
        data-testid="lead-template"
        title={
          <Space>
            <span>{t.name}</span>
            {t.isStarter && <Tag color="gold">推荐</Tag>}
          </Space>
        }
        actions={[
          <Button key="run" type="link" icon={<PlayCircleOutlined />} onClick={() => run(t)}>
            运行
          </Button>,
          ...(t.isStarter
            ? [
                <Button
                  key="copy"
                  type="link"
                  icon={<PlusOutlined />}
                  onClick={() => setTarget({ name: '', filters: t.filters })}
                >
                  另存为我的模板
                </Button>,
              ]
            : [
                <Button key="edit" type="link" icon={<EditOutlined />} onClick={() => setTarget(t)}>
                  编辑
                </Button>,
                <Button
                  key="del"
                  type="link"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => confirmDelete(() => remove.mutateAsync({ id: t.id }), `确定要删除模板「${t.name}」吗？`)}
                >
                  删除
                </Button>,
              ]),
        ]}
      >
        <div style={{ minHeight: 56 }}>
          {describeFilters(t.filters).map((part) => (
            <Tag key={part} style={{ marginBottom: 4 }}>
              {part}
            </Tag>
          ))}
        </div>
      </Card>
    </Col>
  );

  const starters = (templates.data ?? []).filter((t) => t.isStarter);
  const own = (templates.data ?? []).filter((t) => !t.isStarter);

  const body = () => {
    if (templates.isError) return <Result status="error" title="无法获取模板" subTitle="请稍后重试" />;
    if (!templates.data) return <Skeleton active paragraph={{ rows: 6 }} />;
    return (
      <>
        <Typography.Title level={5}>我的模板</Typography.Title>
        {own.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有自己的模板，可新建或从推荐模板另存" />
        ) : (
          <Row gutter={[16, 16]}>{own.map(card)}</Row>
        )}
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          推荐模板
        </Typography.Title>
        {starters.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无推荐模板" />
        ) : (
          <Row gutter={[16, 16]}>{starters.map(card)}</Row>
        )}
      </>
    );
  };

  return (
    <Card
      title="行业模板"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setTarget({ name: '', filters: {} })}>
          新建模板
        </Button>
      }
    >
      {body()}
      <TemplateFormModal target={target} onClose={() => setTarget(null)} />
    </Card>
  );
};
