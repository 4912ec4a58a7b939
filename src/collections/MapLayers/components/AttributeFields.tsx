'use client'
import { useField, useFormFields, useTranslation } from '@payloadcms/ui'
import type { OptionObject, TextFieldClientComponent } from 'payload'
import { useEffect, useState } from 'react'

import { type AttributeDetail, fetchAttributeDetails } from './brokerApi'
import { PickedField, withStoredValues } from '@/fields/PickedField'
import { type AdminTranslate, adminText } from '@/i18n/adminText'

const describe = (t: AdminTranslate, detail: AttributeDetail) =>
  detail.sample === null
    ? adminText(t, 'attributeNoSample', { name: detail.name })
    : adminText(t, 'attributeSample', { name: detail.name, sample: `${detail.sample}${detail.unit ? ` ${detail.unit}` : ''}` })

/** The broker's attributes of the form's entity type, in the form's city, once both are known. */
function useBrokerAttributes() {
  const { t } = useTranslation()
  const entityType = useFormFields(([fields]) => fields.entityType?.value as string | undefined)
  const tenant = useFormFields(([fields]) => fields['source.tenant']?.value as string | undefined)
  const asked = entityType ? `${entityType}|${tenant ?? ''}` : null
  const [answer, setAnswer] = useState<{ asked: string; details: AttributeDetail[]; problem?: string } | null>(null)

  useEffect(() => {
    if (!asked || !entityType) return
    let current = true
    fetchAttributeDetails(entityType, tenant || undefined)
      .then((details) => current && setAnswer({ asked, details }))
      .catch((error: Error) => current && setAnswer({ asked, details: [], problem: error.message }))
    return () => {
      current = false
    }
  }, [asked, entityType, tenant])

  const settled = answer?.asked === asked ? answer : null
  const details = settled?.details ?? []
  const status = !entityType
    ? adminText(t, 'attributesNeedType')
    : !settled
      ? adminText(t, 'attributesAsking')
      : settled.problem
        ? adminText(t, 'attributesUnreadable', { problem: settled.problem })
        : details.length === 0
          ? adminText(t, 'attributesNone', { type: entityType })
          : null
  return { details, status }
}

/**
 * The layer's attributes (and a filter's), picked from the broker's with a sample value and unit
 * each. Picking the layer's attributes also marks those whose sample is text as holding text.
 */
export const BrokerAttributesField: TextFieldClientComponent = (props) => {
  const { t } = useTranslation()
  const { details, status } = useBrokerAttributes()
  const { value } = useField<string[] | string | null>({ potentiallyStalePath: props.path })
  const textAttributes = useField<string[] | null>({ path: 'textAttributes' })
  const options: OptionObject[] = withStoredValues(
    details.map((detail) => ({ label: describe(t, detail), value: detail.name })),
    value,
  )

  const markTextAttributes = (picked: unknown) => {
    if (props.path !== 'attributes' || !Array.isArray(picked)) return
    const kept = (textAttributes.value ?? []).filter((name) => picked.includes(name))
    const added = details.filter((detail) => picked.includes(detail.name) && !kept.includes(detail.name) && detail.sample !== null && !detail.numeric)
    textAttributes.setValue([...kept, ...added.map((detail) => detail.name)])
  }

  return (
    <div className="broker-attributes-field">
      <PickedField props={props} options={options} onChange={markTextAttributes} />
      {status && <p className="field-description">{status}</p>}
    </div>
  )
}

/** Popup, text and alert-rule attributes: picked among the layer's own attributes above. */
export const LayerAttributesField: TextFieldClientComponent = (props) => {
  const attributes = useFormFields(([fields]) => fields.attributes?.value as string[] | null | undefined)
  const { value } = useField<string[] | string | null>({ potentiallyStalePath: props.path })
  const options = withStoredValues((attributes ?? []).map((name) => ({ label: name, value: name })), value)
  return <PickedField props={props} options={options} />
}
