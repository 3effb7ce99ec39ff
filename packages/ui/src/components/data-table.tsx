import type { ComponentChildren } from 'preact';
import { TableRegion } from './page.js';

/** One column of a `DataTable`: its heading and what a row shows in it. */
export interface Column<T> {
  header: string;
  cell(row: T): ComponentChildren;
  /** The cell's class (`code`), or one a row (a state's colour). */
  class?: string | ((row: T) => string | undefined);
  /** The cell names its row (`<th scope="row">`), as a version number does. */
  isRowHeader?: boolean;
}

/**
 * A table of rows (auth methods, engines, versions, accounts) in a region that scrolls sideways on a
 * phone and says so; a column given as `false` is left out (one the token may not use).
 */
export function DataTable<T>(p: {
  /** The region's and the table's accessible name (`Auth methods`). */
  label: string;
  columns: ReadonlyArray<Column<T> | false>;
  rows: readonly T[];
  keyOf(row: T): string | number;
  /** Marks the row shown elsewhere on the screen (`aria-current`). */
  isCurrent?(row: T): boolean;
  class?: string;
}) {
  const columns = p.columns.filter((c): c is Column<T> => c !== false);
  return (
    <TableRegion label={p.label}>
      <table class={p.class}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {p.rows.map((row) => (
            <tr key={p.keyOf(row)} aria-current={p.isCurrent?.(row) ? 'true' : undefined}>
              {columns.map((c) => {
                const cls = typeof c.class === 'function' ? c.class(row) : c.class;
                return c.isRowHeader ? (
                  <th key={c.header} scope="row" class={cls}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.header} class={cls}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
