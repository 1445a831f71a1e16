/** `http.post`: sends the body (or the input) to another system over HTTP. */
import { defineHttpCommand } from './http-call';

export const httpPost = defineHttpCommand(
  'POST',
  'body: { "name": "Ada" }\npipeline:\n  - http.post:\n      url: https://api.example.com/customers\n      headers:\n        X-Api-Key: "#{vars.apiKey}"\n',
);
