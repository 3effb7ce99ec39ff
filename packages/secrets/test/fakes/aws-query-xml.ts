/** XML of the AWS Query protocol (IAM, STS) and the EC2 protocol, for the fakes. */
export type XmlValue = string | number | boolean | Date | undefined | XmlValue[] | { [name: string]: XmlValue };

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `value` as the element `name`; list items become `<member>` (Query) or `<item>` (EC2). */
export function xmlOf(name: string, value: XmlValue, itemTag: 'member' | 'item'): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return `<${name}>${value.map((v) => xmlOf(itemTag, v, itemTag)).join('')}</${name}>`;
  if (value instanceof Date) return `<${name}>${value.toISOString()}</${name}>`;
  if (typeof value === 'object')
    return `<${name}>${Object.entries(value)
      .map(([k, v]) => xmlOf(k, v, itemTag))
      .join('')}</${name}>`;
  return `<${name}>${escapeXml(String(value))}</${name}>`;
}

/** A Query protocol answer: `<ActionResponse><ActionResult>…</ActionResult><ResponseMetadata/>`. */
export function queryAnswer(action: string, namespace: string, result: Record<string, XmlValue>, requestId: string) {
  const body = Object.entries(result)
    .map(([k, v]) => xmlOf(k, v, 'member'))
    .join('');
  return (
    `<${action}Response xmlns="${namespace}"><${action}Result>${body}</${action}Result>` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`
  );
}

export const queryError = (code: string, message: string, requestId: string, type = 'Sender') =>
  `<ErrorResponse><Error><Type>${type}</Type><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message></Error>` +
  `<RequestId>${requestId}</RequestId></ErrorResponse>`;

/** An EC2 protocol answer: `<ActionResponse><requestId/>…</ActionResponse>`. */
export function ec2Answer(action: string, result: Record<string, XmlValue>, requestId: string) {
  const body = Object.entries(result)
    .map(([k, v]) => xmlOf(k, v, 'item'))
    .join('');
  return `<${action}Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>${requestId}</requestId>${body}</${action}Response>`;
}

export const ec2Error = (code: string, message: string, requestId: string) =>
  `<Response><Errors><Error><Code>${escapeXml(code)}</Code><Message>${escapeXml(message)}</Message></Error></Errors>` +
  `<RequestID>${requestId}</RequestID></Response>`;

/** `Prefix.member.N` (Query) or `Prefix.N` (EC2) values of a form, in order. */
export function listOf(form: URLSearchParams, prefix: string): string[] {
  const out: string[] = [];
  for (let i = 1; ; i++) {
    const v = form.get(`${prefix}.member.${i}`) ?? form.get(`${prefix}.${i}`);
    if (v === null) return out;
    out.push(v);
  }
}
