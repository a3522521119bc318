import { Stack, Text } from '@sanity/ui'
import { useFormValue, type NumberInputProps } from 'sanity'
import { PriceSummary } from './PriceSummary.tsx'

/** The amount field of a price option (an item of the event's price options) with the excl. and incl. VAT prices the form will show, computed by the site's pricing code. */
export function AmountInput(props: NumberInputProps) {
  return (
    <Stack space={3}>
      {props.renderDefault(props)}
      <Text size={1} muted>
        <PriceSummary optionKey={useFormValue([...props.path.slice(0, -1), 'key'])} amount={props.value} />
      </Text>
    </Stack>
  )
}
