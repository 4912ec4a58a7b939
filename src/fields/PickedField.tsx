'use client'
import { SelectField } from '@payloadcms/ui'
import type { OptionObject, TextFieldClientProps } from 'payload'

/** Options plus the values already stored that they lack, so nothing stored disappears from view. */
export function withStoredValues(options: OptionObject[], stored: unknown): OptionObject[] {
  const values = (Array.isArray(stored) ? stored : [stored]).filter((value): value is string => typeof value === 'string' && value !== '')
  const missing = values.filter((value) => !options.some((option) => option.value === value))
  return [...options, ...missing.map((value) => ({ label: value, value }))]
}

/**
 * A text field shown as Payload's own select with these options: picked, never typed. The value
 * stays text (or a list of texts), so the stored document and its checks do not change.
 */
export function PickedField({ props, options, onChange }: { props: TextFieldClientProps; options: OptionObject[]; onChange?: (value: unknown) => void }) {
  const { field } = props
  const admin: object = field.admin ?? {}
  return (
    <SelectField
      {...(props as object)}
      path={props.path}
      onChange={onChange}
      field={{ ...field, type: 'select', hasMany: field.hasMany ?? false, options, admin: { ...admin, isClearable: !field.required } } as never}
    />
  )
}
