import { Card, Empty, List, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useRecycleSoon } from '../api';

/** 即将回收 on the workbench: my customers the recycling sweep takes within recycleRemind days. */
export const RecycleSoonCard = () => {
  const { data, isLoading } = useRecycleSoon();
  const navigate = useNavigate();
  if (!isLoading && (data?.days ?? 0) === 0) return null;
  return (
    <Card
      title={
        <>
          即将回收 <Tag color={data?.count ? 'warning' : 'default'}>{data?.count ?? 0}</Tag>
        </>
      }
      extra={<Typography.Text type="secondary">{data?.days ?? 0}天内将被收回公海，请及时跟进</Typography.Text>}
      loading={isLoading}
    >
      {data && data.list.length > 0 ? (
        <List
          size="small"
          dataSource={data.list.slice(0, 10)}
          renderItem={(r) => (
            <List.Item
              style={{ cursor: 'pointer' }}
              onClick={() => navigate(`/manage/mycustomer?detail=${r.cmCtid}`)}
              extra={
                <Typography.Text type="warning">
                  预计 {r.recycleTime} 回收至「{r.cmHsidName}」
                </Typography.Text>
              }
            >
              <Typography.Link>{r.name || '未命名'}</Typography.Link>
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无即将回收的客户" />
      )}
    </Card>
  );
};
