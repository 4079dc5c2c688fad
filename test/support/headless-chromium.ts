/**
 * Debian's chromium driven by playwright-core, as the status page tests use it: installed with apt-get when it is
 * missing (debian-packages.js; a browser that cannot start fails the test), headless, in a throw-away profile, with
 * chromium's own traffic (updates, sync, QUIC) switched off so that every request it makes is the page's.
 */
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import type { BrowserContext, Page } from 'playwright-core';
import { ensureChromium } from './debian-packages';

export interface HeadlessChromium {
  readonly browser: BrowserContext;
  readonly page: Page;
  /** Every URL the browser requested, in order. */
  readonly requested: readonly string[];
  close(): Promise<void>;
}

export async function openChromium(viewport: { width: number; height: number }): Promise<HeadlessChromium> {
  const executablePath: string = ensureChromium();
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'xroute-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    viewport,
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
  });
  const requested: string[] = [];
  browser.on('request', (r) => requested.push(r.url()));
  const page = browser.pages()[0] ?? (await browser.newPage());
  return {
    browser,
    page,
    requested,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
