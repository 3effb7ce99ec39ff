import { ApiError } from '../api/api.js';

/** An error shown where it happened, with the server's own text; announced to screen readers. */
export function ErrorMessage({ error, label }: { error: unknown; label?: string }) {
  if (error === undefined || error === null) return null;
  const lines = messagesOf(error);
  return (
    <div class="error" role="alert">
      {label && <strong>{label}: </strong>}
      {lines.length === 1 ? (
        <span>{lines[0]}</span>
      ) : (
        <ul>
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function messagesOf(error: unknown): string[] {
  if (error instanceof ApiError) {
    if (error.errors.length > 0) return [...error.errors];
    if (error.status === 403) return ['permission denied'];
    return [`the server answered ${error.status}`];
  }
  if (error instanceof TypeError) return [`the server could not be reached (${error.message})`];
  return [error instanceof Error ? error.message : String(error)];
}

/** Whether the server refused for lack of permission: screens then say so instead of showing nothing. */
export function isPermissionDenied(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}
