import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CLIENT_CONFIG } from './aws-auth-store.js';
import { stsUrlOf } from './aws-clients.js';
import { decodeStsRequest, signedRegionOf } from './sts-request.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('where iam logins are sent', () => {
  const signed = decodeStsRequest({
    iam_http_request_method: 'POST',
    iam_request_url: b64('https://sts.eu-west-1.amazonaws.com/'),
    iam_request_body: b64('Action=GetCallerIdentity&Version=2011-06-15'),
    iam_request_headers: b64(
      JSON.stringify({
        Authorization: [
          'AWS4-HMAC-SHA256 Credential=AKIA1/20300101/eu-west-1/sts/aws4_request, SignedHeaders=host;x-amz-date, Signature=00',
        ],
      }),
    ),
  });

  it('reads the region of the credential scope', () => assert.equal(signedRegionOf(signed), 'eu-west-1'));

  it('uses the configured endpoint, else the region asked for, else the global endpoint', () => {
    const region = signedRegionOf(signed);
    assert.equal(stsUrlOf(DEFAULT_CLIENT_CONFIG, region), 'https://sts.amazonaws.com/');
    assert.equal(
      stsUrlOf({ ...DEFAULT_CLIENT_CONFIG, sts_region: 'us-west-2' }, region),
      'https://sts.us-west-2.amazonaws.com/',
    );
    const fromClient = { ...DEFAULT_CLIENT_CONFIG, use_sts_region_from_client: true };
    assert.equal(stsUrlOf(fromClient, region), 'https://sts.eu-west-1.amazonaws.com/');
    assert.equal(stsUrlOf(fromClient, 'evil.example.com/'), 'https://sts.amazonaws.com/');
    assert.equal(stsUrlOf({ ...fromClient, sts_endpoint: 'http://127.0.0.1:9/' }, region), 'http://127.0.0.1:9/');
  });
});
