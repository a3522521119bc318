/** HTML that is already escaped and may be inserted as is. */
export class SafeHtml {
  readonly value: string

  constructor(value: string) {
    this.value = value
  }

  toString(): string {
    return this.value
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character)
}

function renderValue(value: unknown): string {
  if (value instanceof SafeHtml) return value.value
  if (Array.isArray(value)) return value.map(renderValue).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(String(value))
}

/** Template tag that escapes every interpolated value unless it is SafeHtml (or a list of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let result = strings[0] ?? ''
  values.forEach((value, index) => {
    result += renderValue(value) + (strings[index + 1] ?? '')
  })
  return new SafeHtml(result)
}

/** Multi-line visitor text as HTML, line breaks kept. */
export function multilineHtml(text: string): SafeHtml {
  return new SafeHtml(text.split('\n').map(escapeHtml).join('<br>'))
}
