/** `http.get`: reads from another system over HTTP. */
import { defineHttpCommand } from './http-call';

export const httpGet = defineHttpCommand(
  'GET',
  'pipeline:\n  - http.get:\n      url: https://api.example.com/orders?status=open\n      headers: "Authorization: Bearer #{vars.token}"\n      output: "#{vars.orders}"\n',
);
