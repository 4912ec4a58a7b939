import { createNavigation } from 'next-intl/navigation'

import { routing } from './routing'

/** Links and router that keep the reader's locale in the URL. */
export const { Link, usePathname, useRouter, getPathname } = createNavigation(routing)
