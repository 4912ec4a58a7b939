import { describe, expect, it } from 'vitest'

import { inboxOf } from '@/email/server/inbox'

describe('inboxOf: the inbox mail limits protect', () => {
  it('drops a +tag and case: victim+1@ and Victim+2@ are victim@', () => {
    expect(inboxOf('victim+1@city.example')).toBe('victim@city.example')
    expect(inboxOf('  Victim+alerts+2@City.Example ')).toBe('victim@city.example')
    expect(inboxOf('victim@city.example')).toBe('victim@city.example')
  })

  it("drops dots where the provider ignores them (Gmail), and keeps them where it does not", () => {
    expect(inboxOf('j.o.h.n+x@googlemail.com')).toBe('john@gmail.com')
    expect(inboxOf('John.Doe@gmail.com')).toBe('johndoe@gmail.com')
    expect(inboxOf('john.doe@city.example')).toBe('john.doe@city.example')
  })

  it('leaves what is not an address with a local part as it is, lower case', () => {
    expect(inboxOf('+tag@city.example')).toBe('+tag@city.example')
    expect(inboxOf('NoAt')).toBe('noat')
  })
})
