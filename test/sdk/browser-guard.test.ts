import { Linkgate, LinkgateError } from 'linkgate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isBrowserLike } from '../../src/core/runtime.js';

const options = { apiKey: 'k-123456', baseUrl: 'https://links.example.com' };

describe('browser guard', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('refuses to construct in a page (window + document) and says why', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(() => new Linkgate(options)).toThrow(LinkgateError);
    expect(() => new Linkgate(options)).toThrow(/key would ship to every visitor.*dangerouslyAllowBrowser: true/s);
  });

  it('refuses to construct in a web worker', () => {
    vi.stubGlobal('WorkerGlobalScope', class {});
    vi.stubGlobal('importScripts', () => {});
    expect(() => new Linkgate(options)).toThrow(/browser-like environment/);
  });

  it('constructs in a browser with dangerouslyAllowBrowser: true', () => {
    vi.stubGlobal('window', {});
    vi.stubGlobal('document', {});
    expect(new Linkgate({ ...options, dangerouslyAllowBrowser: true }).baseUrl).toBe('https://links.example.com');
  });

  it('treats Node, Deno and Bun as servers even with browser-like globals', () => {
    expect(isBrowserLike({ process: { versions: { node: '24' } } })).toBe(false);
    expect(isBrowserLike({ Deno: {}, window: {}, document: {} })).toBe(false);
    expect(isBrowserLike({ Bun: {}, window: {}, document: {} })).toBe(false);
    expect(isBrowserLike({ window: {}, document: {} })).toBe(true);
    expect(new Linkgate(options)).toBeInstanceOf(Linkgate);
  });
});
