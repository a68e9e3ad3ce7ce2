// Every picture here is 4:2:0, whose sides and crop origins are even: sizes and places are put on even
// pixels, one way for all.

/** The even number at or below `n`: a place, or an edge that must stay where it is or inside. */
export const evenBelow = (n: number): number => Math.floor(n / 2) * 2

/** The even number at or above `n`: an edge that must take in all of what it bounds. */
export const evenAbove = (n: number): number => Math.ceil(n / 2) * 2

/** The even size nearest `n`, at least 2. */
export const evenSize = (n: number): number => Math.max(2, Math.round(n / 2) * 2)

/** The even size at or below `n`, at least 2: a size that must fit in what holds it. */
export const evenSizeBelow = (n: number): number => Math.max(2, evenBelow(n))
