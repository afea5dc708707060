export { ControlInput } from './ControlInput';
export { controlRules } from './control-rules';
export {
  CONTROL_FIELD,
  type ControlFormValues,
  controlFieldName,
  enabledControls,
  fromStored,
  type LabeledValue,
  placeholderOf,
  requiredMessage,
  type StoredFile,
  toSubmitted,
} from './control-values';
export { TEMPLATE_FORM_LAYOUT } from './layout';
export { TemplateFields } from './TemplateFields';
export { TemplatePreview } from './TemplatePreview';
