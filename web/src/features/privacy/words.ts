/** `1 submission`, `3 submissions`: a count and its noun. */
export const plural = (n: number, word: string) => `${n.toLocaleString()} ${word}${n === 1 ? "" : "s"}`;
