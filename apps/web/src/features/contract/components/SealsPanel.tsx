import { PlusOutlined } from '@ant-design/icons';
import { CONTRACT_LIMITS, SEAL_KIND, SEAL_KIND_LABEL, type Seal, type SealStoreBody } from '@crm/contracts';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { ImageUpload, type UploadedImage } from '../../../components/ImageUpload';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useContractAccount, useDestroySeal, useSealApprovalFlows, useSeals, useStoreSeal } from '../api';
import { SealSvg } from './SealSvg';

type Values = {
  name: string;
  kind: 1 | 2 | 3;
  file?: UploadedImage | null;
  staff_ids: number[];
  needs_approval: boolean;
  approval_template_id?: number;
};

/** An uploaded seal must be a PNG with a transparent background: checked in the browser first (the server checks again). */
const hasTransparency = (url: string) =>
  new Promise<boolean>((resolve) => {
    const img = new Image();
    img.crossOrigin = 'use-credentials';
    img.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const ctx = canvas.getContext('2d');
      if (!ctx) return resolve(true);
      ctx.drawImage(img, 0, 0);
      try {
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 3; i < data.length; i += 4) if ((data[i] as number) < 250) return resolve(true);
        resolve(false);
      } catch {
        resolve(true); // unreadable here: the server decides
      }
    };
    img.onerror = () => resolve(true);
    img.src = url;
  });

const SealDialog = ({ seal, onClose }: { seal: Seal | 'new' | null; onClose: () => void }) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const account = useContractAccount();
  const flows = useSealApprovalFlows();
  const store = useStoreSeal();
  const kind = Form.useWatch('kind', form) ?? 1;
  const needsApproval = Form.useWatch('needs_approval', form) ?? false;
  const isOpen = seal !== null;
  const companyName = account.data?.company_name ?? '';

  useEffect(() => {
    if (!isOpen) return;
    const s = seal === 'new' ? null : seal;
    form.setFieldsValue({
      name: s?.name ?? '合同专用章',
      kind: (s?.kind ?? 1) as 1 | 2 | 3,
      file: s?.kind === SEAL_KIND.uploaded ? { id: 0, url: s.image_url, name: s.name } : null,
      staff_ids: s?.staff_ids ?? [],
      needs_approval: s?.needs_approval === 1,
      approval_template_id: s?.approval_template_id || undefined,
    });
  }, [isOpen, seal, form]);

  const submit = async (v: Values) => {
    if (v.kind === SEAL_KIND.uploaded && v.file?.id && !(await hasTransparency(v.file.url)))
      return message.error('印章图片须为透明背景的PNG图片');
    const body: Partial<SealStoreBody> = {
      id: seal !== 'new' && seal ? seal.id : undefined,
      name: v.name.trim(),
      kind: v.kind,
      file_id: v.kind === SEAL_KIND.uploaded ? v.file?.id || undefined : undefined,
      staff_ids: v.staff_ids ?? [],
      needs_approval: v.needs_approval ? 1 : 0,
      approval_template_id: v.needs_approval ? v.approval_template_id : undefined,
    };
    try {
      await store.mutateAsync(body);
    } catch {
      return;
    }
    message.success('添加/更新成功！');
    onClose();
  };

  return (
    <Modal
      title={seal === 'new' ? '新建印章' : '编辑印章'}
      open={isOpen}
      width={600}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ loading: store.isPending }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item label="印章类型" name="kind">
          <Radio.Group
            optionType="button"
            disabled={seal !== 'new'}
            onChange={(e) => {
              const k = e.target.value as number;
              if (k !== SEAL_KIND.uploaded) form.setFieldValue('name', SEAL_KIND_LABEL[k]);
            }}
            options={[1, 2, 3].map((k) => ({ value: k, label: k === 3 ? '上传印章图片' : `生成${SEAL_KIND_LABEL[k]}` }))}
          />
        </Form.Item>
        <div style={{ display: 'flex', gap: 24 }}>
          <div style={{ flex: 1 }}>
            <Form.Item
              label="印章名称"
              name="name"
              rules={[
                { required: true, whitespace: true, message: '请输入印章名称' },
                { max: 30, message: '印章名称最多30个字符' },
              ]}
            >
              <Input maxLength={30} placeholder="如：合同专用章" />
            </Form.Item>
            {kind === SEAL_KIND.uploaded && (
              <Form.Item
                label="印章图片（透明背景PNG）"
                name="file"
                rules={[
                  {
                    validator: (_, v?: UploadedImage | null) =>
                      v ? Promise.resolve() : Promise.reject(new Error('请上传印章图片（透明背景PNG）')),
                  },
                ]}
              >
                <ImageUpload label="上传PNG" disabled={seal !== 'new'} />
              </Form.Item>
            )}
            <Form.Item label="可使用人员" name="staff_ids" extra="不选则所有员工均可使用">
              <StaffSearchSelect mode="multiple" allowClear maxCount={CONTRACT_LIMITS.sealStaff} placeholder="全部员工" />
            </Form.Item>
            <Form.Item name="needs_approval" valuePropName="checked" style={{ marginBottom: 8 }}>
              <Checkbox>使用时需要用印审批</Checkbox>
            </Form.Item>
            {needsApproval && (
              <Form.Item
                label="用印审批流程"
                name="approval_template_id"
                rules={[{ required: true, message: '请选择用印审批流程' }]}
                extra={(flows.data?.list.length ?? 0) === 0 ? '暂无用印审批流程，请先在“审批设置”中添加用印审批模板' : undefined}
              >
                <Select
                  placeholder="请选择用印审批流程"
                  loading={flows.isFetching}
                  options={(flows.data?.list ?? []).map((f) => ({ value: f.coMatid, label: f.name }))}
                />
              </Form.Item>
            )}
          </div>
          {kind !== SEAL_KIND.uploaded && (
            <div style={{ width: 180, textAlign: 'center' }}>
              <Typography.Text type="secondary">预览</Typography.Text>
              <SealSvg companyName={companyName} kind={SEAL_KIND_LABEL[kind] ?? ''} size={180} />
              {!companyName && <Typography.Text type="warning">请先在“电子签账户”中填写企业名称</Typography.Text>}
            </div>
          )}
        </div>
      </Form>
    </Modal>
  );
};

/** 印章管理: the company's seals (generated or uploaded), who may use them, 用印审批, 销毁. */
export const SealsPanel = () => {
  const [withDestroyed, setWithDestroyed] = useState<0 | 1>(0);
  const seals = useSeals(withDestroyed);
  const destroy = useDestroySeal();
  const { modal, message } = App.useApp();
  const [editing, setEditing] = useState<Seal | 'new' | null>(null);

  const confirmDestroy = (s: Seal) =>
    modal.confirm({
      title: '销毁印章',
      content: `确定销毁“${s.name}”吗？销毁后不能再用于新合同，已盖章的合同不受影响。此操作不可恢复。`,
      okText: '确定销毁',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        try {
          await destroy.mutateAsync({ id: s.id });
        } catch {
          return;
        }
        message.success('操作成功');
      },
    });

  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建印章
        </Button>
        <Switch checked={withDestroyed === 1} onChange={(on) => setWithDestroyed(on ? 1 : 0)} /> 显示已销毁
      </Space>
      {!seals.data ? (
        <Skeleton active />
      ) : seals.data.list.length === 0 ? (
        <Empty description="暂无印章，点击“新建印章”生成或上传" />
      ) : (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))', gap: 16 }}>
          {seals.data.list.map((s) => (
            <Card
              key={s.id}
              size="small"
              title={s.name}
              extra={s.status === 1 ? <Tag>已销毁</Tag> : <Tag color="red">{s.kind_name}</Tag>}
              actions={
                s.status === 0
                  ? [
                      <Typography.Link key="edit" onClick={() => setEditing(s)}>
                        编辑
                      </Typography.Link>,
                      <Typography.Link key="destroy" type="danger" onClick={() => confirmDestroy(s)}>
                        销毁
                      </Typography.Link>,
                    ]
                  : undefined
              }
            >
              <div style={{ textAlign: 'center', opacity: s.status === 1 ? 0.4 : 1 }}>
                <img src={s.image_url} alt={s.name} width={120} height={120} style={{ objectFit: 'contain' }} />
              </div>
              <Space direction="vertical" size={2} style={{ fontSize: 13 }}>
                <span>使用人员：{s.staff_names.length === 0 ? '全部员工' : s.staff_names.join('、')}</span>
                <span>用印审批：{s.needs_approval === 1 ? '需要' : '不需要'}</span>
                <Typography.Text type="secondary">
                  {s.status === 1 ? `销毁于 ${s.destroyed_at}` : `创建于 ${s.created_at}`}
                </Typography.Text>
              </Space>
            </Card>
          ))}
        </div>
      )}
      <Alert
        type="info"
        showIcon
        style={{ marginTop: 16 }}
        message="生成的印章使用“电子签账户”中的企业名称；销毁的印章仍保留在其已签署的合同上。"
      />
      <SealDialog seal={editing} onClose={() => setEditing(null)} />
    </>
  );
};
