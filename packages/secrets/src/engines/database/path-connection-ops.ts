import { definePath, field, type PathDefinition } from '../../framework/index.js';
import { InvalidRequestError, UpstreamError } from '../../logical/errors.js';
import { configs } from './config-store.js';
import { isTemplated } from './connection-url.js';
import { type DatabaseDeps, requireConfig } from './deps.js';
import { newPassword } from './passwords.js';
import { renderStatements } from './statements.js';

/** `reset/:name`: closes the connection's pool; the next use connects with the stored settings. */
export function pathReset(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'reset/:name',
    fields: { name: field.path({ description: 'Name of the connection.' }) },
    operations: {
      update: {
        summary: 'Close the connection pool of a config.',
        handler: async ({ storage, data }) => {
          await requireConfig(storage, data.name);
          await d.connections.close(data.name);
          return undefined;
        },
      },
    },
    help: { synopsis: 'Reset a database connection.', description: 'Running calls finish first.' },
  });
}

/** `reload/:plugin_name`: closes the pools of every connection of a plugin. */
export function pathReload(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'reload/:plugin_name',
    fields: { plugin_name: field.path({ description: 'Name of the plugin.' }) },
    operations: {
      update: {
        summary: 'Close the pools of every connection that uses a plugin.',
        handler: async ({ storage, data }) => {
          const names: string[] = [];
          for (const name of await configs.list(storage)) {
            const config = await configs.get(storage, name);
            if (config?.plugin_name !== data.plugin_name) continue;
            await d.connections.close(name);
            names.push(name);
          }
          if (names.length === 0) {
            throw new InvalidRequestError(`no connections were found with plugin_name "${data.plugin_name}"`);
          }
          return { data: { connections: names, count: names.length } };
        },
      },
    },
    help: { synopsis: 'Reload the connections of a plugin.', description: 'Answers the names of the connections.' },
  });
}

/**
 * `rotate-root/:name`: gives the config's user a new password only the engine knows. The new
 * password is saved as pending before the database changes (connections try it when the
 * stored one is refused), so a crash in between leaves a password that works.
 */
export function pathRotateRoot(d: DatabaseDeps): PathDefinition {
  return definePath({
    pattern: 'rotate-root/:name',
    fields: { name: field.path({ description: 'Name of the connection.' }) },
    operations: {
      update: {
        summary: "Rotate the password of the connection's root user.",
        handler: ({ storage, data }) =>
          d.locks.run(`config:${data.name}`, async () => {
            const config = await requireConfig(storage, data.name);
            if (!config.username)
              throw new InvalidRequestError('unable to rotate root credentials: no username in configuration');
            if (!config.password)
              throw new InvalidRequestError('unable to rotate root credentials: no password in configuration');
            if (!isTemplated(config.connection_url)) {
              throw new InvalidRequestError(
                'unable to rotate root credentials: connection_url is not templated with {{password}}',
              );
            }
            const open = await d.connections.get(storage, data.name, config);
            const password = await newPassword(config.password_policy, d.random, d.system);
            const current = open.config;
            await configs.put(storage, data.name, { ...current, pending_password: password });
            const values = new Map([
              ['username', current.username],
              ['name', current.username],
              ['password', password],
            ]);
            const chosen =
              current.root_rotation_statements.length > 0
                ? current.root_rotation_statements
                : open.plugin.defaultRotationStatements;
            try {
              await open.session.transaction(renderStatements(chosen, values));
            } catch (err) {
              await configs.put(storage, data.name, { ...current, pending_password: '' });
              throw new UpstreamError(`failed to update user: ${(err as Error).message}`, { cause: err });
            }
            await configs.put(storage, data.name, { ...current, password, pending_password: '' });
            await d.connections.close(data.name);
            return undefined;
          }),
      },
    },
    help: {
      synopsis: "Rotate the root user's password.",
      description: 'After this only the engine knows the password; the URL must use `{{password}}`.',
    },
  });
}
