/**
 * The words for a sold-out event, on the hero's button, the cards and the Register tab. A module of its own, so the
 * event page's browser code takes these words without the pricing code the headline is computed with.
 */
export const SOLD_OUT_NOTICE = 'Sold out: join the waiting list'
