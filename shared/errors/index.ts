export { ERROR_CODES, STATUS_MESSAGES, statusOf, type ErrorCode } from './error-codes';
export { PipeworkError, isPipeworkError, type ErrorDetails } from './pipework-error';
export { isConnectionFailure } from './connection-failure';
