/** `http.patch`: changes part of a resource of another system over HTTP. */
import { defineHttpCommand } from './http-call';

export const httpPatch = defineHttpCommand(
  'PATCH',
  'pipeline:\n  - http.patch:\n      url: https://api.example.com/customers/42\n      body: { "email": "ada@example.com" }\n',
);
