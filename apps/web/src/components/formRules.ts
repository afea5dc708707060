import { passwordSchema } from '@crm/contracts';
import type { FormRule } from 'antd';

/** The part of a zod schema a form rule needs (structural, so the web needs no zod import). */
type Checkable = {
  safeParse: (value: unknown) => { success: true } | { success: false; error: { issues: { message: string }[] } };
};

/**
 * A form rule that runs a contract schema, so the form shows the server's own messages
 * (STYLE: the zod schema gives the form rules). Empty values are left to a `required` rule.
 */
export const zodRule = (schema: Checkable): FormRule => ({
  validator: async (_, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    const result = schema.safeParse(value);
    if (!result.success) throw new Error(result.error.issues[0]?.message ?? '格式不正确');
  },
});

export const requiredRule = (message: string): FormRule => ({ required: true, message });

/** Password fields: required plus the contract's passwordSchema (PASSWORD_RULE). */
export const passwordRules = (label = '密码'): FormRule[] => [requiredRule(`请输入${label}`), zodRule(passwordSchema)];

/** A confirm field that must equal `field` (SPEC: 两次输入的新密码不一致). */
export const sameAsRule =
  (field: string, msg = '两次输入的新密码不一致'): FormRule =>
  ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      if (value && getFieldValue(field) !== value) throw new Error(msg);
    },
  });
