import { TagIcon } from '@sanity/icons'
import { delegateCap, OPTION_KEYS, type OptionKey } from '@events/pricing'
import { defineField, defineType } from 'sanity'
import { AmountInput } from '../components/AmountInput.tsx'
import { PriceOptionPreview, type PriceOptionPreviewValue } from '../components/PriceOptionPreview.tsx'

const PER_DELEGATE_TITLES: Partial<Record<OptionKey, string>> = {
  venue: 'Venue (per delegate)',
  'early-bird': 'Early-bird (per delegate)',
  online: 'Online (per delegate)',
}

// A table's size is a pricing rule, not content: the editor sees it here and cannot set another.
function optionTitle(key: OptionKey): string {
  const cap = delegateCap(key)
  return cap === undefined ? (PER_DELEGATE_TITLES[key] ?? key) : `Table (flat price, at most ${cap} delegates)`
}

type PriceOptionFields = { key?: string }

/**
 * One way to register for an event and its price: an item of the event's price options, published with the
 * event. Its rules (amount, early-bird date, and those that compare it with the other options and the event's
 * dates) are the event's, so they are checked at the event's Publish.
 */
export const priceOption = defineType({
  name: 'priceOption',
  title: 'Price option',
  type: 'object',
  icon: TagIcon,
  fields: [
    defineField({
      name: 'key',
      title: 'Option',
      type: 'string',
      options: { list: OPTION_KEYS.map((value) => ({ value, title: optionTitle(value) })), layout: 'radio' },
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'label',
      type: 'string',
      description: 'Shown in the registration form, e.g. "Early-bird: register and pay by 13 June 2025"',
      validation: (rule) => rule.required(),
    }),
    defineField({
      name: 'amount',
      title: 'Amount (rand, excl. VAT)',
      type: 'number',
      description: 'Per delegate; for table options the flat price of the table',
      components: { input: AmountInput },
      validation: (rule) => rule.required().precision(2),
    }),
    defineField({
      name: 'earlyBirdUntil',
      title: 'Early-bird until',
      type: 'date',
      description: 'Last day (Africa/Johannesburg) to register and pay at this price; must be before the event',
      hidden: ({ parent, value }) => (parent as PriceOptionFields | undefined)?.key !== 'early-bird' && !value,
    }),
  ],
  preview: {
    select: { label: 'label', key: 'key', amount: 'amount' },
    // The price is drawn by PriceOptionPreview, which knows the site settings' VAT rate.
    prepare: ({ label, key, amount }) => {
      const value: { title: string } & PriceOptionPreviewValue = { title: label ?? key ?? 'New price option', optionKey: key, amount }
      return value
    },
  },
  components: { preview: PriceOptionPreview },
})
