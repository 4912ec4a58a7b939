// RFC 7807 ProblemDetails with the ETSI NGSI-LD error type URIs real brokers send.

const ERRORS = 'https://uri.etsi.org/ngsi-ld/errors/'

export const errorTypes = {
  badRequestData: `${ERRORS}BadRequestData`,
  invalidRequest: `${ERRORS}InvalidRequest`,
  resourceNotFound: `${ERRORS}ResourceNotFound`,
  operationNotSupported: `${ERRORS}OperationNotSupported`,
  tooManyResults: `${ERRORS}TooManyResults`,
  internalError: `${ERRORS}InternalError`,
  nonExistingTenant: `${ERRORS}NonExistingTenant`,
  tenantNotFound: `${ERRORS}TenantNotFound`,
  nonexistentTenant: `${ERRORS}NonexistentTenant`,
} as const

export interface ProblemDetails {
  type: string
  title: string
  detail: string
}

/** Thrown by request handlers; the server turns it into a ProblemDetails response. */
export class BrokerError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string,
  ) {
    super(`${title}: ${detail}`)
    this.name = 'BrokerError'
  }

  toProblem(): ProblemDetails {
    return { type: this.type, title: this.title, detail: this.detail }
  }
}

export const badRequest = (detail: string) => new BrokerError(400, errorTypes.badRequestData, 'Bad Request Data', detail)
export const notFound = (detail: string, title = 'Resource Not Found') => new BrokerError(404, errorTypes.resourceNotFound, title, detail)
export const notSupported = (detail: string) => new BrokerError(501, errorTypes.operationNotSupported, 'Operation Not Supported', detail)
