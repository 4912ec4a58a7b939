'use client'
import { useField, useFormFields, useTranslation } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'
import { useEffect, useState } from 'react'

import { adminText } from '@/i18n/adminText'

import { PickedField, withStoredValues } from './PickedField'

type LayerAttributes = { attributes?: string[] | null; textAttributes?: string[] | null }

const layersRead = new Map<string, Promise<LayerAttributes>>()
const readLayer = (id: string) => {
  let read = layersRead.get(id)
  if (!read) {
    read = fetch(`/api/map-layers/${encodeURIComponent(id)}?depth=0`, { credentials: 'include' }).then((response) => {
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`)
      return response.json() as Promise<LayerAttributes>
    })
    layersRead.set(id, read)
    read.catch(() => layersRead.delete(id))
  }
  return read
}

/** A block's attribute(s), picked from the attributes of the block's layer (its sibling `layer` field). */
export const LayerAttributeSelect: TextFieldClientComponent = (props) => {
  const { t } = useTranslation()
  const siblingLayerPath = props.path.split('.').slice(0, -1).concat('layer').join('.')
  const layer = useFormFields(([fields]) => fields[siblingLayerPath]?.value as string | number | { id?: string | number } | null | undefined)
  const layerId = typeof layer === 'object' && layer !== null ? layer.id : layer
  const { value } = useField<string | string[] | null>({ potentiallyStalePath: props.path })
  const asked = layerId === undefined || layerId === null || layerId === '' ? null : String(layerId)
  const [answer, setAnswer] = useState<{ asked: string; layer?: LayerAttributes; problem?: string } | null>(null)

  useEffect(() => {
    if (!asked) return
    let current = true
    readLayer(asked)
      .then((layer) => current && setAnswer({ asked, layer }))
      .catch((error: Error) => current && setAnswer({ asked, problem: error.message }))
    return () => {
      current = false
    }
  }, [asked])

  const settled = asked && answer?.asked === asked ? answer : null
  const found = settled?.layer
  const problem = settled?.problem
  const texts = found?.textAttributes ?? []
  const options = withStoredValues(
    (found?.attributes ?? []).map((name) => ({ label: texts.includes(name) ? adminText(t, 'attributeHoldsText', { name }) : name, value: name })),
    value,
  )
  return (
    <div className="layer-attribute-select">
      <PickedField props={props} options={options} />
      {!asked && <p className="field-description">{adminText(t, 'attributesNeedLayer')}</p>}
      {problem !== undefined && <p role="alert">{adminText(t, 'layerAttributesUnreadable', { problem })}</p>}
    </div>
  )
}
