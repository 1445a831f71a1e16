/** `http.delete`: deletes a resource of another system over HTTP. */
import { defineHttpCommand } from './http-call';

export const httpDelete = defineHttpCommand(
  'DELETE',
  'pipeline:\n  - http.delete:\n      url: https://api.example.com/customers/42\n      ignoreErrorStatus: true\n      includeResponse: true\n',
);
