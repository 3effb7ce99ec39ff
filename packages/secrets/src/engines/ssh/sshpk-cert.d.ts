declare module 'sshpk/lib/formats/openssh-cert.js' {
  import type { Certificate, Signature } from 'sshpk';
  /** Signs `cert` in OpenSSH format with what `signer` makes of the to-be-signed blob. */
  export function signAsync(
    cert: Certificate,
    signer: (blob: Buffer, done: (err: Error | null, signature?: Signature) => void) => void,
    done: (err?: Error) => void,
  ): void;
}
