/** How wide a message for an operator's terminal is at most, but for a word (a path, a URL) longer than that. */
export const OPERATOR_LINE_WIDTH = 100

/**
 * Breaks a long message for an operator into lines of at most `width` characters at the spaces between words, so
 * it reads in a terminal and in a log viewer without scrolling sideways. A word longer than a line (a path, a
 * URL) is kept whole on a line of its own; the lines the message already has are kept.
 */
export function wrapLines(text: string, width: number = OPERATOR_LINE_WIDTH): string {
  return text
    .split('\n')
    .map((line) => {
      const lines: string[] = []
      let current = ''
      for (const word of line.split(' ')) {
        if (current !== '' && current.length + 1 + word.length > width) {
          lines.push(current)
          current = word
        } else {
          current = current === '' ? word : `${current} ${word}`
        }
      }
      lines.push(current)
      return lines.join('\n')
    })
    .join('\n')
}
