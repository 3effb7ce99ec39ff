import { Page } from '../../components/page.js';

/** The Tools section: one link per tool (wrap, lookup, unwrap, rewrap, random, hash, console). */
export function ToolsIndex() {
  return (
    <Page title="Tools">
      <ul class="cards" />
    </Page>
  );
}
