/** The explorer's view of failures: one readable line (the API feature's), and a test for one error code. */
import { ApiError } from '../../api';

export { errorText } from '../../api';

export function isApiError(error: unknown, code: string): error is ApiError {
  return error instanceof ApiError && error.value.code === code;
}
