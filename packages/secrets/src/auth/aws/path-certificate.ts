import { X509Certificate } from 'node:crypto';
import { decodeIfBase64, definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, NotFoundError } from '../../logical/errors.js';
import { awsAuthStore } from './aws-auth-store.js';

function pemOf(text: string): string {
  const pem = text.includes('-----BEGIN') ? text : decodeIfBase64(text);
  try {
    new X509Certificate(pem);
  } catch {
    throw new InvalidRequestError('aws_public_cert: not a PEM certificate');
  }
  return pem;
}

/** `config/certificate/:cert_name` and LIST `config/certificates`: extra AWS public certificates for ec2 logins. */
export function pathCertificates(): PathDefinition[] {
  return [
    definePath({
      pattern: 'config/certificates/',
      fields: {},
      operations: {
        list: {
          summary: 'List the certificates.',
          handler: async ({ storage }) => ({ data: { keys: await awsAuthStore.certificates(storage) } }),
        },
      },
      help: { synopsis: 'List the AWS public certificates.', description: 'The built-in certificate is not listed.' },
    }),
    definePath({
      pattern: 'config/certificate/:cert_name',
      fields: {
        cert_name: field.path({ description: 'Name of the certificate.' }),
        aws_public_cert: field.string({ description: 'PEM (or base64 of the PEM) of the certificate.' }),
        type: field.enum({
          description: '`pkcs7` (verifies the pkcs7 document) or `identity` (the document’s RSA signature).',
          values: ['pkcs7', 'identity'],
          default: 'pkcs7',
        }),
      },
      operations: {
        update: {
          summary: 'Add or replace a certificate.',
          handler: async ({ storage, data }) => {
            if (!data.aws_public_cert) throw new InvalidRequestError('missing aws_public_cert');
            await awsAuthStore.putCertificate(storage, data.cert_name, {
              aws_public_cert: pemOf(data.aws_public_cert),
              type: data.type,
            });
            return undefined;
          },
        },
        read: {
          summary: 'Read a certificate.',
          handler: async ({ storage, data }) => {
            const cert = await awsAuthStore.certificate(storage, data.cert_name);
            if (!cert) throw new NotFoundError('');
            return { data: { ...cert } };
          },
        },
        delete: {
          summary: 'Remove a certificate.',
          handler: async ({ storage, data }) => {
            await awsAuthStore.deleteCertificate(storage, data.cert_name);
            return undefined;
          },
        },
      },
      help: {
        synopsis: 'Manage AWS public certificates.',
        description: 'ec2 logins are verified with the built-in AWS certificate and every one added here.',
      },
    }),
  ];
}
