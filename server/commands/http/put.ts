/** `http.put`: replaces a resource of another system over HTTP. */
import { defineHttpCommand } from './http-call';

export const httpPut = defineHttpCommand(
  'PUT',
  'pipeline:\n  - http.put:\n      url: https://api.example.com/customers/42\n      body: { "name": "Ada Lovelace" }\n',
);
