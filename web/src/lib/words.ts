const rules = new Intl.PluralRules("en");

/** "1 submission", "2 submissions": a count with its noun, as English writes it. */
export const count = (n: number, noun: string, plural = `${noun}s`) => `${n} ${rules.select(n) === "one" ? noun : plural}`;
