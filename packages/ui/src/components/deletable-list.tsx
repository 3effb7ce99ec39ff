import './deletable-list.css';
import type { ComponentChildren } from 'preact';
import { useAction } from '../hooks/use-action.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorMessage } from './error-message.js';

/**
 * A list of names (users, roles, member groups), each with a button that deletes it, asked twice.
 * `onDelete` does the work; its failure is shown above the list with the server's text.
 */
export function DeletableList(p: {
  /** The list's accessible name (`Users`). */
  label: string;
  items: readonly string[];
  /** What an item is, for the question (`user`). */
  noun: string;
  /** Whether the token may delete: without it the list has no buttons. */
  canDelete: boolean;
  onDelete(item: string): Promise<void>;
  /** The verb of the button (`Delete`, `Remove`); `Delete` unless told. */
  verb?: string;
  /** An item's name in the buttons (a group's name for its id); the item itself unless told. */
  nameOf?(item: string): string;
  /** How an item is shown (a link); its name in monospace unless told. */
  render?(item: string): ComponentChildren;
}) {
  const remove = useAction(p.onDelete);
  const verb = p.verb ?? 'Delete';
  return (
    <>
      <ErrorMessage error={remove.error} />
      <ul class="list deletable-list" aria-label={p.label}>
        {p.items.map((item) => {
          const name = p.nameOf ? p.nameOf(item) : item;
          return (
            <li key={item}>
              <span class="code">{p.render ? p.render(item) : name}</span>
              {p.canDelete && (
                <ConfirmButton
                  label={`${verb} ${name}`}
                  question={`${verb} the ${p.noun} ${name}?`}
                  confirmLabel={`${verb} ${name} now`}
                  disabled={remove.isPending}
                  onConfirm={() => remove.run(item)}
                />
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}
