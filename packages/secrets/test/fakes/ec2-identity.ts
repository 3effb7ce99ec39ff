import forge from 'node-forge';

/**
 * What the EC2 instance metadata service signs: an instance identity document as PKCS#7
 * signed data (base64 DER, without PEM armour, as `/latest/dynamic/instance-identity/pkcs7`
 * serves it), made with node-forge under a self-signed certificate standing in for AWS's.
 */
export interface IdentitySigner {
  /** The certificate to register with `config/certificate/:name`. */
  certificatePem: string;
  /** The PKCS#7 of a document with these fields (plus the usual ones AWS puts in). */
  pkcs7(doc: { instanceId: string; imageId: string; accountId: string; region: string; pendingTime?: string }): string;
}

const oid = (name: string): string => forge.pki.oids[name] ?? '';

export function createIdentitySigner(): IdentitySigner {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date('2020-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2040-01-01T00:00:00Z');
  const name = [{ name: 'organizationName', value: 'Fake Web Services' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    certificatePem: forge.pki.certificateToPem(cert),
    pkcs7(doc) {
      const document = JSON.stringify(
        {
          accountId: doc.accountId,
          architecture: 'x86_64',
          availabilityZone: `${doc.region}a`,
          imageId: doc.imageId,
          instanceId: doc.instanceId,
          instanceType: 't3.micro',
          pendingTime: doc.pendingTime ?? '2030-01-01T00:00:00Z',
          privateIp: '10.0.0.10',
          region: doc.region,
          version: '2017-09-30',
        },
        null,
        2,
      );
      const p7 = forge.pkcs7.createSignedData();
      p7.content = forge.util.createBuffer(document, 'utf8');
      p7.addCertificate(cert);
      p7.addSigner({
        key: keys.privateKey,
        certificate: cert,
        digestAlgorithm: oid('sha256'),
        authenticatedAttributes: [
          { type: oid('contentType'), value: oid('data') },
          { type: oid('messageDigest') },
          { type: oid('signingTime'), value: new Date('2030-01-01T00:00:00Z') as unknown as string },
        ],
      });
      p7.sign();
      return Buffer.from(forge.asn1.toDer(p7.toAsn1()).getBytes(), 'binary').toString('base64');
    },
  };
}
