/** `@xml`: XPath over an XML document (text, bytes or data), parsed without external entities. */
import { type UtilitySpec, text } from './support';
import { evaluateXPath, evaluateXPathText } from './xml-support';

export const xmlUtility: UtilitySpec = {
  name: 'xml',
  doc: 'XML: XPath 1.0 over a document given as text, bytes or data (@convert.toDOM), of at most 200,000 characters, with a step budget per call. Entity declarations are refused.',
  functions: {
    xpath: {
      signature: 'xpath(document, xpath)',
      doc: "What the XPath selects: a list for nodes (elements as XML text, attributes and text as their value), else the number, text or boolean: @xml.xpath('<a><b>1</b></a>', 'count(//b)') is 1. Null document gives null.",
      fn: (...a) =>
        a[0] === null || a[0] === undefined ? null : evaluateXPath('xpath', a[0], text('xpath', a, 1)),
    },
    xpathAsText: {
      signature: 'xpathAsText(document, xpath)',
      doc: "The text the XPath selects (of the first node; '' when none): @xml.xpathAsText('<a><b>hi</b></a>', '/a/b') is 'hi'.",
      fn: (...a) =>
        a[0] === null || a[0] === undefined
          ? null
          : evaluateXPathText('xpathAsText', a[0], text('xpathAsText', a, 1)),
    },
  },
};
