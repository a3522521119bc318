import { Stack, Text } from '@sanity/ui'
import { isOptionKey } from '@events/pricing'
import { useFormValue, type NumberInputProps } from 'sanity'
import { priceSummary } from '../lib/price.ts'

/** The amount field with the excl. and incl. VAT prices the form will show, computed by the site's pricing code. */
export function AmountInput(props: NumberInputProps) {
  const key = useFormValue(['key'])
  const amount = props.value
  const summary = isOptionKey(key) && typeof amount === 'number' && amount >= 0 ? priceSummary(key, amount) : undefined
  return (
    <Stack space={3}>
      {props.renderDefault(props)}
      {summary && (
        <Text size={1} muted>
          {summary}
        </Text>
      )}
    </Stack>
  )
}
