import { SaveOutlined, SearchOutlined } from '@ant-design/icons';
import { LEAD_LIMITS, type LeadFilters, leadFiltersSchema } from '@crm/contracts';
import { Alert, App, Button, Card, Form, Space, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTablePaging } from '../../../components/useTablePaging';
import { useAdvancedSearch } from '../api';
import { AddToTaskModal } from '../components/AddToTaskModal';
import { CompanyCardDrawer } from '../components/CompanyCardDrawer';
import { ConvertModal } from '../components/ConvertModal';
import { LeadFilterForm } from '../components/LeadFilterForm';
import { type LeadSort, LeadTable } from '../components/LeadTable';
import { type LeadFilterValues, rangeProblem, toFilterValues, toLeadFilters } from '../components/leadFilters';
import { ProviderWarning } from '../components/ProviderWarning';
import { TemplateFormModal, type TemplateTarget } from '../components/TemplateFormModal';

/** ?filters=… (a template run from 行业模板) → the filters, or null when absent or not valid. */
const filtersOfUrl = (raw: string | null): LeadFilters | null => {
  if (!raw) return null;
  try {
    const parsed = leadFiltersSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

/** /jingxiansuo/advanced 找线索: filter the registry, pick companies, turn them into customers or task numbers. */
export const AdvancedSearchPage = () => {
  const { message } = App.useApp();
  const [form] = Form.useForm<LeadFilterValues>();
  const [params] = useSearchParams();
  const fromUrl = useMemo(() => filtersOfUrl(params.get('filters')), [params]);
  const templateName = params.get('template');
  const [filters, setFilters] = useState<LeadFilters | null>(fromUrl);
  const [sort, setSort] = useState<LeadSort>({ orderBy: 'foundedOn', orderSort: 'desc' });
  const paging = useTablePaging(LEAD_LIMITS.pageSize);
  const result = useAdvancedSearch(filters ? { ...filters, ...sort, page: paging.page, limit: paging.limit } : null);
  const [selected, setSelected] = useState<{ id: number; name: string }[]>([]);
  const [openId, setOpenId] = useState<number | null>(null);
  const [isConvertOpen, setConvertOpen] = useState(false);
  const [isTaskOpen, setTaskOpen] = useState(false);
  const [template, setTemplate] = useState<TemplateTarget | null>(null);

  // A template run from 行业模板 arrives in the URL: fill the form with it and search at once.
  const { resetPage } = paging;
  useEffect(() => {
    if (!fromUrl) return;
    form.resetFields();
    form.setFieldsValue(toFilterValues(fromUrl));
    setFilters(fromUrl);
    setSelected([]);
    resetPage();
  }, [fromUrl, form, resetPage]);

  const search = () => {
    const values = form.getFieldsValue();
    const problem = rangeProblem(values);
    if (problem) return void message.warning(problem);
    setFilters(toLeadFilters(values));
    setSelected([]);
    paging.resetPage();
  };
  const reset = () => {
    form.resetFields();
    setFilters(null);
    setSelected([]);
  };
  const saveAsTemplate = () => {
    const values = form.getFieldsValue();
    const problem = rangeProblem(values);
    if (problem) return void message.warning(problem);
    setTemplate({ name: templateName ?? '', filters: toLeadFilters(values) });
  };

  const ids = selected.map((s) => s.id);
  const tooMany = selected.length > LEAD_LIMITS.maxSelect;

  return (
    <Card title="找线索">
      <LeadFilterForm form={form} />
      <Space style={{ marginBottom: 16 }} wrap>
        <Button type="primary" icon={<SearchOutlined />} onClick={search} loading={result.isFetching}>
          搜索
        </Button>
        <Button onClick={reset}>重置</Button>
        <Button icon={<SaveOutlined />} onClick={saveAsTemplate}>
          保存为模板
        </Button>
        {templateName && <Typography.Text type="secondary">当前模板：{templateName}</Typography.Text>}
      </Space>
      {filters === null ? (
        <Alert type="info" showIcon title="设置筛选条件后点击「搜索」，从企业库中找出符合条件的企业" />
      ) : (
        <>
          <ProviderWarning error={result.data?.providerError} />
          <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
            <Typography.Text>
              共找到 <b data-testid="lead-count">{result.data?.count ?? 0}</b> 家企业
              {selected.length > 0 && `，已选择 ${selected.length} 家`}
            </Typography.Text>
            <Space>
              <Button type="primary" disabled={selected.length === 0 || tooMany} onClick={() => setConvertOpen(true)}>
                转为客户
              </Button>
              <Button disabled={selected.length === 0 || tooMany} onClick={() => setTaskOpen(true)}>
                加入任务
              </Button>
            </Space>
          </Space>
          {tooMany && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              title={`一次最多选择${LEAD_LIMITS.maxSelect}家企业，请减少选择`}
            />
          )}
          <LeadTable
            rows={result.data?.list ?? []}
            loading={result.isFetching}
            pagination={paging.pagination(result.data?.count ?? 0)}
            onOpen={(row) => setOpenId(row.id)}
            selected={ids}
            onSelect={(keys, rows) => {
              const known = new Map([...selected, ...rows.filter(Boolean)].map((r) => [r.id, r.name]));
              setSelected(keys.map((id) => ({ id, name: known.get(id) ?? '' })));
            }}
            sort={sort}
            onSort={(s) => {
              setSort(s);
              paging.resetPage();
            }}
            empty="没有符合条件的企业，试试放宽筛选条件"
          />
        </>
      )}
      <CompanyCardDrawer id={openId} onClose={() => setOpenId(null)} />
      <ConvertModal
        open={isConvertOpen}
        leads={selected}
        onClose={() => setConvertOpen(false)}
        onDone={(r) => r.created.length > 0 && setSelected([])}
      />
      <AddToTaskModal open={isTaskOpen} ids={ids} onClose={() => setTaskOpen(false)} onDone={() => setSelected([])} />
      <TemplateFormModal target={template} onClose={() => setTemplate(null)} createTitle="保存为模板" />
    </Card>
  );
};
