import { describe, expect, it } from 'vitest';
import { withoutTrailingSlashes } from '../../src/shared/trailing-slashes.js';

describe('withoutTrailingSlashes', () => {
  it('removes every slash at the end and nothing else', () => {
    expect(withoutTrailingSlashes('https://api.example.com/v3///')).toBe('https://api.example.com/v3');
    expect(withoutTrailingSlashes('/a//b')).toBe('/a//b');
    expect(withoutTrailingSlashes('///')).toBe('');
  });

  it('takes linear time on a long run of slashes that is not at the end', () => {
    // /\/+$/ needs about n²/2 steps here (minutes for this input); the loop needs one pass.
    const crafted = `${'/'.repeat(200_000)}a`;
    const started = performance.now();
    expect(withoutTrailingSlashes(crafted)).toBe(crafted);
    expect(performance.now() - started).toBeLessThan(2_000); // minutes when quadratic; generous for a loaded machine
  });
});
