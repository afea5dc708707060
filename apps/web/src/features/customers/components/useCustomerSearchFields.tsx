import { CONTACT_STATUS_LABEL, DM_TYPE, type TemplateControl } from '@crm/contracts';
import { useMemo } from 'react';
import { DepartmentTreeSelect } from '../../../components/DepartmentTreeSelect';
import type { SearchField, SearchOption } from '../../../components/SearchBar/types';
import { useLabelOptions } from '../../../components/TemplateForm/useLabelOptions';
import { useDepartmentTree } from '../../departments/api';
import { fetchStaffOptions, useStageOptions } from '../api';
import { useTemplateInfo } from '../templates-api';
import { type CustomerFilterKey, controlSearchFields, labelSelectOptions } from './listFilters';

const CONTACT_STATUS_OPTIONS = Object.entries(CONTACT_STATUS_LABEL).map(([value, label]) => ({ value: Number(value), label }));

const staffOptions = async (keyword: string): Promise<SearchOption[]> =>
  (await fetchStaffOptions(keyword)).map((s) => ({ value: s.staff_id, label: s.linkman }));

/** Kinds whose values make a readable list column (text and options). */
const COLUMN_KINDS: readonly number[] = [
  DM_TYPE.text,
  DM_TYPE.textarea,
  DM_TYPE.select,
  DM_TYPE.multiSelect,
  DM_TYPE.selectByText,
];

/**
 * The search bar of a customer list: the page's fixed filters (SPEC §7), the template's
 * isSearch controls as 更多筛选, and the first three of those worth a table column.
 * Stage and tag filters hide while their settings give no options.
 */
export const useCustomerSearchFields = (keys: readonly CustomerFilterKey[]) => {
  const stages = useStageOptions();
  const labels = useLabelOptions();
  const template = useTemplateInfo(1);
  const departments = useDepartmentTree();

  const labelOptions = useMemo(() => labelSelectOptions(labels.data ?? []), [labels.data]);
  const searchControls = useMemo<TemplateControl[]>(
    () => (template.data?.templateControls ?? []).filter((c) => c.isSearch === 1 && c.actionState === 0),
    [template.data],
  );

  const fields = useMemo(() => {
    const stageOptions = (stages.data ?? []).map((s) => ({ value: s.cmNid, label: s.name }));
    const departmentSelect = (label: string) => () => (
      <DepartmentTreeSelect departments={departments.data ?? []} placeholder={label} style={{ width: 200 }} />
    );
    const all: Record<CustomerFilterKey, SearchField | null> = {
      name: { kind: 'text', name: 'name', label: '客户名称' },
      contactName: { kind: 'text', name: 'contactName', label: '联系人' },
      contactPhone: { kind: 'text', name: 'contactPhone', label: '联系电话' },
      cmNid: stageOptions.length > 0 ? { kind: 'select', name: 'cmNid', label: '客户阶段', options: stageOptions } : null,
      cmClids:
        labelOptions.length > 0
          ? { kind: 'select', name: 'cmClids', label: '客户标签', options: labelOptions, isMultiple: true }
          : null,
      lastContactStatus: { kind: 'select', name: 'lastContactStatus', label: '联系状态', options: CONTACT_STATUS_OPTIONS },
      followCmSid: { kind: 'remoteSelect', name: 'followCmSid', label: '负责人', fetchOptions: staffOptions },
      followCmDid: { kind: 'custom', name: 'followCmDid', label: '所属部门', render: departmentSelect('所属部门') },
      createCmSid: { kind: 'remoteSelect', name: 'createCmSid', label: '创建人', fetchOptions: staffOptions, isMore: true },
      createCmDid: { kind: 'custom', name: 'createCmDid', label: '创建部门', render: departmentSelect('创建部门'), isMore: true },
      createTime: { kind: 'dateRange', name: 'createTime', label: '创建时间', isMore: true },
      allotTime: { kind: 'dateRange', name: 'allotTime', label: '分配时间', isMore: true },
      nextFollowTime: { kind: 'dateRange', name: 'nextFollowTime', label: '下次跟进', isMore: true },
      lastContactTime: { kind: 'dateRange', name: 'lastContactTime', label: '最近联系', isMore: true },
      followTime: { kind: 'dateRange', name: 'followTime', label: '最近跟进', isMore: true },
      exRecoveryTime: { kind: 'dateRange', name: 'exRecoveryTime', label: '预计回收', isMore: true },
      contactNum: { kind: 'numberRange', name: 'contactNum', label: '联系次数', isMore: true },
    };
    return keys.map((k) => all[k]).filter((f): f is SearchField => f !== null);
  }, [keys, stages.data, labelOptions, departments.data]);

  const dynamicFields = useMemo(() => controlSearchFields(searchControls, labelOptions), [searchControls, labelOptions]);

  const columnControls = useMemo(() => {
    const contact = searchControls.find((c) => c.dmType === DM_TYPE.text && c.name.includes('联系人'));
    return searchControls.filter((c) => c !== contact && COLUMN_KINDS.includes(c.dmType)).slice(0, 3);
  }, [searchControls]);

  return {
    fields,
    dynamicFields,
    searchControls,
    columnControls,
    hasLabels: labelOptions.length > 0,
    labelOptions,
  };
};
