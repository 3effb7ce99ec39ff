import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

// The web UI's browser harness (issue 34): Debian's Chromium through playwright-core (it never
// downloads a browser), screenshots at both widths in both themes, and axe-core on every screen.

/** Where the screenshots go: a gitignored folder CI keeps as the test's artifacts. */
export const UI_ARTIFACTS = fileURLToPath(new URL('../../../../test-results/ui/', import.meta.url));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch(LAUNCH);
}

/** A phone held upright and a desktop. */
export const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 900 },
] as const;

const THEMES = ['light', 'dark'] as const;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * One browser tab on the UI, under the server's real Content-Security-Policy (axe-core is evaluated
 * through the DevTools protocol, which the policy does not govern). It records what the page
 * logged: a CSP refusal or an uncaught error fails the test that checks `problems()`.
 */
export class UiTab {
  readonly #problems: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
  ) {
    page.on('console', (m) => {
      if (m.type() !== 'error' || /status of 4\d\d/.test(m.text())) return;
      const at = m.location();
      this.#problems.push(`console: ${m.text()} (${at.url}:${at.lineNumber}, page ${page.url()})`);
    });
    page.on('pageerror', (e) => this.#problems.push(`page error: ${e.message}`));
  }

  static async open(browser: Browser, baseUrl: string): Promise<UiTab> {
    const context = await browser.newContext({
      baseURL: baseUrl,
      viewport: { width: WIDTHS[1].width, height: WIDTHS[1].height },
      colorScheme: 'light',
    });
    return new UiTab(context, await context.newPage());
  }

  /** Console errors (other than the 4xx answers the UI shows in place), CSP refusals, uncaught errors. */
  problems(): string[] {
    return [...this.#problems];
  }

  /**
   * Screenshots of the screen as it stands at both widths in both themes (`<name>-<width>-<theme>.png`),
   * and what is wrong with it: axe-core's serious and critical findings in each theme, and horizontal
   * scrolling of the page at either width (a table region may scroll inside itself).
   */
  async capture(name: string): Promise<string[]> {
    mkdirSync(UI_ARTIFACTS, { recursive: true });
    const found: string[] = [];
    for (const theme of THEMES) {
      await this.page.emulateMedia({ colorScheme: theme });
      for (const size of WIDTHS) {
        await this.page.setViewportSize({ width: size.width, height: size.height });
        const overflow = (await this.page.evaluate(
          'document.documentElement.scrollWidth - window.innerWidth',
        )) as number;
        if (overflow > 0) found.push(`${name} at ${size.width} px: the page scrolls sideways by ${overflow} px`);
        await this.page.screenshot({ path: `${UI_ARTIFACTS}${name}-${size.name}-${theme}.png`, fullPage: true });
      }
      found.push(...(await this.#axe()).map((v) => `${name} (${theme}): ${v}`));
    }
    await this.page.emulateMedia({ colorScheme: 'light' });
    await this.page.setViewportSize({ width: WIDTHS[1].width, height: WIDTHS[1].height });
    return found;
  }

  async #axe(): Promise<string[]> {
    if (!(await this.page.evaluate('typeof window.axe === "object"'))) await this.page.evaluate(AXE_SOURCE);
    const violations = (await this.page.evaluate('axe.run(document).then((r) => r.violations)')) as AxeViolation[];
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  /** Everything the page keeps where a secret must never go: `localStorage`, cookies and the URL. */
  async exposedPlaces(): Promise<string> {
    const local = await this.page.evaluate('JSON.stringify(Object.entries(localStorage))');
    const cookies = JSON.stringify(await this.context.cookies());
    return `${local}\n${cookies}\n${this.page.url()}`;
  }

  /**
   * Runs `work` on this tab and closes it; when `work` fails, the page as it was is saved as
   * `failed-<name>.png` among the artifacts first.
   */
  async use(name: string, work: (tab: UiTab) => Promise<void>): Promise<void> {
    try {
      await work(this);
    } catch (err) {
      mkdirSync(UI_ARTIFACTS, { recursive: true });
      await this.page.screenshot({ path: `${UI_ARTIFACTS}failed-${name}.png`, fullPage: true }).catch(() => undefined);
      throw err;
    } finally {
      await this.context.close();
    }
  }
}

export function assertNoProblems(found: string[]): void {
  assert.deepEqual(found, [], found.join('\n'));
}
