/**
 * The work every system of the peer bench does, written once: an order payload, the answer it must give, and
 * Pipework's pipeline for it (Node-RED's flow and n8n's workflow beside this file do the same five steps).
 */
export interface OrderPayload {
  customer: { name: string };
  items: { price: number; qty: number }[];
}

export function orderPayload(name = 'Ada Lovelace'): OrderPayload {
  return {
    customer: { name },
    items: [
      { price: 12.5, qty: 4 },
      { price: 30, qty: 2 },
      { price: 7.25, qty: 3 },
    ],
  };
}

/** The correct answer for a payload: the sum, a greeting, a comparison, an upper-case name. */
export function expectedAnswer(payload: OrderPayload) {
  const total = payload.items.reduce((sum, item) => sum + item.price * item.qty, 0);
  return {
    total,
    greeting: `Hello ${payload.customer.name}!`,
    big: total > 100,
    name: payload.customer.name.toUpperCase(),
  };
}

/** The five steps as a Pipework pipeline; its input is the body. */
export const ORDERS_STEPS = `pipeline:
  - set.var:
      key: total
      value: "#{@calc.sum(body.items.![price * qty])}"
  - set.var:
      key: greeting
      value: "Hello #{body.customer.name}!"
  - set.var:
      key: big
      value: "#{vars.total > 100}"
  - set.var:
      key: name
      value: "#{@text.upperCase(body.customer.name)}"
  - set.body: "#{ {'total': vars.total, 'greeting': vars.greeting, 'big': vars.big, 'name': vars.name} }"
`;

/** The inline form users send: the data in `body:` and the steps after it. */
export function inlinePipeline(payload: OrderPayload): string {
  return `body: ${JSON.stringify(payload)}\n${ORDERS_STEPS}`;
}

export const STORED_ORDERS_KEY = 'global/app/bench/pipeline/orders';
