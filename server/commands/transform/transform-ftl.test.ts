// transform.ftl: FreeMarker templates on a model (given, from a URI, or the message), and the refusals:
// unknown directives by name, missing values, and a loop past the step budget ending at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../testing/command-forms';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { FtlEvaluator } from '../../ftl/ftl-eval';
import { parseFtl, stripDirectiveLines } from '../../ftl/ftl-parse';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const pipeline = (yaml: string) =>
  http(server.url, '/api/v3/pipeline', { body: yaml, type: 'application/yaml', auth: server.adminAuth });

const render = (template: string, model: Record<string, unknown>) =>
  new FtlEvaluator(model).render(parseFtl(template));

describe('the FreeMarker subset', () => {
  const products = { products: { apple: 5, banana: 10, kiwi: 15 } };

  it('lists lists and hashes, strips the lines that hold only directives, branches', () => {
    const people = {
      people: [
        { firstName: 'Maria', lastName: 'Sanders' },
        { firstName: 'Markus', lastName: 'Mayers' },
      ],
    };
    expect(
      render(
        'List of people:\n<#list people as person>\n- ${person.firstName} ${person.lastName}\n</#list>\n',
        people,
      ),
    ).toBe('List of people:\n- Maria Sanders\n- Markus Mayers\n');
    expect(render('Hello ${people[1].firstName}!', people)).toBe('Hello Markus!');
    expect(
      render(
        '<#list products as name, price>\n${name}: <#if price < 10>cheap<#elseif price gt 12>dear<#else>fair</#if>\n</#list>\n',
        products,
      ),
    ).toBe('apple: cheap\nbanana: fair\nkiwi: dear\n');
    expect(render('<#list none as x>${x}<#else>empty</#list>', { none: [] })).toBe('empty');
    expect(() => render('<#list products as p>${p}</#list>', products)).toThrow(/two loop variables/);
    expect(() => render('<#list xs as k, v>${k}</#list>', { xs: [1] })).toThrow(/needs a hash/);
  });

  it('assigns, defaults, built-ins, loop variables, numbers in the default form', () => {
    expect(
      render(
        '<#assign total = 0><#list xs as x><#assign total = total + x>${x?counter}<#if x?has_next>,</#if></#list> = ${total}',
        { xs: [1000, 2.5] },
      ),
    ).toBe('1,2 = 1,002.5');
    expect(
      render('${missing!"none"} ${name?? } ${tags?join("/")} ${tags?size}', {
        tags: ['a', 'b'],
      }),
    ).toBe('none false a/b 2');
    expect(
      render('${s?cap_first} ${s?length} ${ok?string("yes", "no")} ${"<b>"?html}', { s: 'max', ok: true }),
    ).toBe('Max 3 yes &lt;b&gt;');
  });

  it('never reaches JavaScript members of the model', () => {
    expect(render('${x.constructor!"none"} ${x.__proto__!"none"}', { x: {} })).toBe('none none');
  });

  it('ends at the output budget and at the step budget', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i);
    const tiny = new FtlEvaluator({ xs }, { maxChars: 50 });
    expect(() => tiny.render(parseFtl('<#list xs as x>${x}</#list>'))).toThrow(/longer than 50 characters/);
    const short = new FtlEvaluator({ xs }, { maxSteps: 100 });
    expect(() => short.render(parseFtl('<#list xs as x>${x}</#list>'))).toThrow(/more than 100 steps/);
  });

  it('strips only lines of directives', () => {
    expect(stripDirectiveLines('  <#if a>  \ntext <#if b>\n</#if>\n')).toBe('<#if a>text <#if b>\n</#if>');
  });
});

describe('transform.ftl', () => {
  it('renders the guide example, and the message as the default model', async () => {
    const response = await pipeline(`vars:
  who: Sam
pipeline:
  - transform.ftl:
      model: {"firstName": "Max", "lastName": "Smith"}
      template: |
        Hello \${firstName} \${lastName}!
  - transform.ftl:
      template: "\${body?trim} and \${vars.who}; #{not PEL}"
`);
    expect(response.status, response.text).toBe(200);
    expect(response.text).toBe('Hello Max Smith! and Sam; #{not PEL}');
  });

  it('reads the model and the template from URIs, as the caller', async () => {
    const response = await pipeline(`pipeline:
  - property.schema.put:
      key: global/app/ftltest/data/person
      type: application/json
  - property.put:
      key: global/app/ftltest/data/person
      value: {"firstName": "Maria"}
  - drive.save:
      path: templates/person.ftl
      input: "Hi \${firstName}"
  - transform.ftl:
      model: "$uri:property:global/app/ftltest/data/person@value"
      template: "$uri:drive:/templates/person.ftl"
`);
    expect(response.status, response.text).toBe(200);
    expect(response.text).toBe('Hi Maria');
  });

  it('refuses an unknown directive by name, with its line', async () => {
    const response = await pipeline(`pipeline:
  - transform.ftl:
      model: {"a": 1}
      template: |
        first line
        <#macro greet>hi</#macro>
`);
    expect(codeOf(response)).toBe('PARAM_INVALID');
    expect(response.json.value.message).toContain('<#macro>');
    const sep = await pipeline(
      'pipeline:\n  - transform.ftl:\n      model: {"xs": [1]}\n      template: "<#list xs as x>${x}<#sep>,</#list>"\n',
    );
    expect(codeOf(sep)).toBe('PARAM_INVALID');
    expect(sep.json.value.message).toContain('<#sep>');
  });

  it('refuses a missing value clearly', async () => {
    const response = await pipeline(
      'pipeline:\n  - transform.ftl:\n      model: {"a": 1}\n      template: "${b.c}"\n',
    );
    expect(codeOf(response)).toBe('PARAM_INVALID');
    expect(response.json.value.message).toContain('b is missing');
  });

  it('ends a huge loop at the step budget, without a stall', async () => {
    const started = Date.now();
    const response = await pipeline(`vars:
  xs: "#{@list.range(0, 5000)}"
pipeline:
  - transform.ftl:
      template: "<#list vars.xs as a><#list vars.xs as b>\${a}</#list></#list>"
`);
    expect(codeOf(response)).toBe('LIMIT_EXCEEDED');
    expect(response.json.value.message).toContain('steps');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});
