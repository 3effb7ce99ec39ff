import type { ComponentChildren } from 'preact';
import { useApp } from '../app-context.js';

/** A link within the app: a real `<a href>` (open in a new tab works), followed without a reload. */
export function Link(props: { to: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' }) {
  const { router } = useApp();
  return (
    <a
      href={router.href(props.to)}
      class={props.class}
      aria-current={props['aria-current']}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        router.navigate(props.to);
      }}
    >
      {props.children}
    </a>
  );
}
