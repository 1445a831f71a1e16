/** One readable line for any failure: the contract's code and message for API errors. */
import { ApiError } from '../../api';

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return `${error.value.code}: ${error.value.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function isApiError(error: unknown, code: string): error is ApiError {
  return error instanceof ApiError && error.value.code === code;
}
