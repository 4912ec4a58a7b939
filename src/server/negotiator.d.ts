// negotiator's own API as far as it is used here (@types/negotiator lacks the `preferred` option).
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> })
    /** `available` ordered by the client's preference; ties in `options.preferred` order. */
    encodings(available?: string[], options?: { preferred?: string[] }): string[]
  }
}
