import { useCapabilities } from '../../api/capabilities.js';
import { useApp } from '../../app-context.js';
import { DataTable } from '../../components/data-table.js';
import { ErrorMessage } from '../../components/error-message.js';
import { useAction } from '../../hooks/use-action.js';

/** One account of `library/:name/status`. */
export interface AccountStatus {
  available: boolean;
  borrower_entity_id?: string;
  borrower_accessor?: string;
}

/**
 * The accounts of a set: available or checked out (with the borrower's entity and token
 * accessor), and for each one out *Check in* (the borrower's own, unless the set disables the
 * enforcement) and *Force check-in* (`library/manage/…`, shown only to a token allowed it).
 */
export function LibraryStatus(p: {
  mount: string;
  name: string;
  status: Record<string, AccountStatus>;
  onChange(): void;
}) {
  const { api } = useApp();
  const own = `${p.mount}/library/${p.name}/check-in`;
  const manage = `${p.mount}/library/manage/${p.name}/check-in`;
  const caps = useCapabilities([own, manage]);
  const checkIn = useAction(async (account: string, isForced: boolean) => {
    await api.write(isForced ? manage : own, { service_account_names: [account] });
    p.onChange();
  });
  return (
    <>
      <DataTable
        label="Accounts"
        class="library-status"
        rows={Object.entries(p.status)}
        keyOf={([account]) => account}
        columns={[
          { header: 'Account', cell: ([account]) => account, class: 'code' },
          {
            header: 'Status',
            cell: ([, s]) => (s.available ? 'Available' : 'Checked out'),
            class: ([, s]) => (s.available ? 'available' : 'borrowed'),
          },
          {
            header: 'Borrower',
            cell: ([, s]) => (
              <>
                {s.borrower_entity_id && <div class="code">entity {s.borrower_entity_id}</div>}
                {s.borrower_accessor && <div class="code">accessor {s.borrower_accessor}</div>}
              </>
            ),
          },
          {
            header: 'Actions',
            cell: ([account, s]) => (
              <>
                {!s.available && caps.allows(own, 'update') && (
                  <button
                    type="button"
                    disabled={checkIn.isPending}
                    aria-label={`Check in ${account}`}
                    onClick={() => checkIn.run(account, false)}
                  >
                    Check in
                  </button>
                )}
                {!s.available && caps.allows(manage, 'update') && (
                  <button
                    type="button"
                    class="secondary"
                    disabled={checkIn.isPending}
                    aria-label={`Force check-in of ${account}`}
                    onClick={() => checkIn.run(account, true)}
                  >
                    Force check-in
                  </button>
                )}
              </>
            ),
          },
        ]}
      />
      <ErrorMessage error={checkIn.error} />
    </>
  );
}
