import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiResponse } from '../../../mock/openapi/openapi-document.js';

describe('GET /openapi.json', () => {
  it('answers with the document for the origin asked', () => {
    const answer = openApiResponse('http://127.0.0.1:4999');
    expect(JSON.parse(answer.body as string)).toEqual(buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:4999' }));
    expect(JSON.parse(openApiResponse('http://localhost:4998').body as string).servers[0].url).toBe(
      'http://localhost:4998',
    );
  });

  it('builds the document once per origin, not on every request', () => {
    // One build of a fresh origin is the unit; fifty answers for a known origin must cost far less than fifty builds.
    openApiResponse('http://warm-up.test');
    const started = performance.now();
    openApiResponse('http://127.0.0.1:5001');
    const oneBuild = performance.now() - started;
    const again = performance.now();
    for (let i = 0; i < 50; i++) openApiResponse('http://127.0.0.1:5001');
    expect(performance.now() - again).toBeLessThan(oneBuild * 5);
  });

  it('keeps only a few origins, since the Host header chooses them', () => {
    for (let i = 0; i < 100; i++) openApiResponse(`http://host-${i}.test`);
    expect(JSON.parse(openApiResponse('http://host-0.test').body as string).servers[0].url).toBe('http://host-0.test');
  });
});
