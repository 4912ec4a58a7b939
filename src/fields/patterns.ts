// Shared by field validation, the admin components and the features route.
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/
export const TENANT_NAME = /^[A-Za-z0-9_-]{1,64}$/
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/
