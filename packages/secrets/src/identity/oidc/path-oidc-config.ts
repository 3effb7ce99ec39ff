import { definePath, field } from '../../framework/index.js';
import { InvalidRequestError } from '../../logical/errors.js';
import { oidcStore } from './oidc-store.js';

/** `oidc/config`: the issuer (scheme, host and port the tokens' `iss` and the discovery document name). */
export function pathOidcConfig() {
  return definePath({
    pattern: 'oidc/config',
    fields: { issuer: field.string({ description: 'Scheme, host and optional port of the issuer (no path).' }) },
    operations: {
      read: {
        summary: 'Read the issuer.',
        handler: async ({ storage }) => ({ data: { issuer: await oidcStore.issuer(storage) } }),
      },
      update: {
        summary: 'Set the issuer.',
        handler: async ({ storage, data }) => {
          const issuer = (data.issuer ?? '').trim();
          if (issuer !== '') {
            let url: URL;
            try {
              url = new URL(issuer);
            } catch {
              throw new InvalidRequestError(`invalid issuer: ${issuer}`);
            }
            if (!/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== ''))
              throw new InvalidRequestError('issuer must be an http(s) URL without a path');
          }
          await oidcStore.putIssuer(storage, issuer);
          if (issuer === '') return undefined;
          // The established answer to an explicit issuer: a write with a warning (200).
          return {
            data: null,
            warnings: [
              'If "issuer" is set explicitly, all tokens must be validated against that address, including those ' +
                'issued by secondary clusters. Setting issuer to "" will restore the default behavior of using the ' +
                "cluster's api_addr as the issuer.",
            ],
          };
        },
      },
    },
    help: {
      synopsis: 'Configure the identity token issuer.',
      description: 'Tokens carry iss <issuer>/v1/identity/oidc; clients discover the keys there.',
    },
  });
}
