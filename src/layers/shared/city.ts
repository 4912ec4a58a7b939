/**
 * The city (NGSI-LD tenant) a layer is read for: a layer bound to a city always reads that city;
 * any other reads the first city chosen (a block's, then the page's or the reader's). The server
 * (src/layers/entry/tenant.ts) and the browser's dashboard both ask this.
 */
export const cityOfRead = (boundCity: string | null | undefined, ...chosen: (string | null | undefined)[]): string | undefined =>
  boundCity || chosen.find((city) => Boolean(city)) || undefined
