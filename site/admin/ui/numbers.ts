// Number fields of the panel's forms: what the owner typed as the API takes it, and back.

/** A number field as the API takes it: empty is not zero (NaN travels as null and is refused, with the schema's message). */
export const numberOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** A number as its field shows it: empty while the owner has cleared it. */
export const shownNumber = (n: number) => (Number.isNaN(n) ? '' : String(n));
