import { expect, it } from 'vitest';
import { CreatedEnvelope, Domain, pagedEnvelope } from '../../../src/schemas/index.js';
import { describeMock } from '../support/harness.js';
import { addUserWithKey, manualClock } from '../support/management.js';

describeMock(
  'branded domains',
  (ctx) => {
    it('adds a domain and answers its integer id', async () => {
      const res = await ctx.api('POST', '/api/domain/add', {
        body: {
          domain: 'https://go.example.com',
          redirectroot: 'https://example.com',
          redirect404: 'https://example.com/404',
        },
      });
      expect(res.json).toEqual({ error: 0, id: 1 });
      expect(CreatedEnvelope.safeParse(res.json).success).toBe(true);
      expect(ctx.backend.store.domains.get(1)).toMatchObject({
        domain: 'https://go.example.com',
        redirectroot: 'https://example.com',
        redirect404: 'https://example.com/404',
      });
    });

    it('lists the caller\'s domains in the paged envelope under "domains"', async () => {
      await ctx.api('POST', '/api/domain/add', { body: { domain: 'https://a.example' } });
      await ctx.api('POST', '/api/domain/add', { body: { domain: 'http://b.example' } });
      const res = await ctx.api('GET', '/api/domains');
      expect(res.json.error).toBe('0');
      expect(res.json.data).toEqual({
        result: 2,
        perpage: 15,
        currentpage: 1,
        nextpage: null,
        maxpage: 1,
        domains: [
          { id: 2, domain: 'http://b.example', redirectroot: '', redirect404: '' },
          { id: 1, domain: 'https://a.example', redirectroot: '', redirect404: '' },
        ],
      });
      expect(pagedEnvelope(Domain, ['domains']).safeParse(res.json).success).toBe(true);
    });

    it.each([
      ['no domain', {}, 'A valid domain name is required.'],
      ['a domain without a scheme', { domain: 'go.example.com' }, 'A valid domain name is required.'],
      ['an ftp domain', { domain: 'ftp://go.example.com' }, 'A valid domain name is required.'],
      [
        'a bad redirectroot',
        { domain: 'https://a.example', redirectroot: 'nope' },
        'A valid url is required for the root domain.',
      ],
      [
        'a bad redirect404',
        { domain: 'https://a.example', redirect404: 'nope' },
        'A valid url is required for the 404 page.',
      ],
    ])('refuses %s and stores nothing', async (_case, body, message) => {
      const before = ctx.backend.store.snapshot();
      const res = await ctx.api('POST', '/api/domain/add', { body });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ error: 1, message });
      expect(ctx.backend.store.snapshot()).toEqual(before);
    });

    it('refuses a host someone else already added', async () => {
      const other = addUserWithKey(ctx.backend, 'carol');
      ctx.backend.store.addDomain(other.id, { domain: 'https://go.example.com' });
      const res = await ctx.api('POST', '/api/domain/add', { body: { domain: 'http://GO.example.com/' } });
      expect(res.json).toEqual({ error: 1, message: 'The domain has been already used.' });
      expect(ctx.backend.store.domains.size).toBe(1);
    });

    it.each([
      'https://go.alice.example.',
      'https://go.alice.example:8443',
      'https://GO.Alice.Example./landing',
      'http://go.alice.example..:80/',
    ])(
      'refuses %s beside https://go.alice.example: case, port and trailing dot do not make another host',
      async (domain) => {
        const other = addUserWithKey(ctx.backend, 'alice');
        ctx.backend.store.addDomain(other.id, { domain: 'https://go.alice.example' });
        const before = ctx.backend.store.snapshot();
        const res = await ctx.api('POST', '/api/domain/add', { body: { domain } });
        expect(res.json).toEqual({ error: 1, message: 'The domain has been already used.' });
        expect(ctx.backend.store.snapshot()).toEqual(before);
      },
    );

    it('frees a host for others once its domain is deleted', async () => {
      const other = addUserWithKey(ctx.backend, 'alice');
      const row = ctx.backend.store.addDomain(other.id, { domain: 'https://go.alice.example' });
      ctx.backend.store.domains.delete(row.id);
      const res = await ctx.api('POST', '/api/domain/add', { body: { domain: 'https://go.alice.example.' } });
      expect(res.json.error).toBe(0);
    });

    it('names the field and rule when a redirect is not a string', async () => {
      const res = await ctx.api('POST', '/api/domain/add', { body: { domain: 'https://a.example', redirectroot: 5 } });
      expect(res.json).toEqual({
        error: 1,
        message: 'Invalid request: "redirectroot" must be a string.',
        issues: ['redirectroot: must be a string'],
      });
    });

    it('updates only the fields sent', async () => {
      const row = ctx.backend.store.addDomain(1, { domain: 'https://a.example', redirectroot: 'https://r.example' });
      const res = await ctx.api('PUT', `/api/domain/${row.id}/update`, {
        body: { redirect404: 'https://x.example/404' },
      });
      expect(res.json).toEqual({ error: 0, message: 'Domain has been updated successfully.' });
      expect(ctx.backend.store.domains.get(row.id)).toMatchObject({
        redirectroot: 'https://r.example',
        redirect404: 'https://x.example/404',
      });
    });

    it('answers "No data sent." to an update without either field', async () => {
      const row = ctx.backend.store.addDomain(1, { domain: 'https://a.example' });
      const res = await ctx.api('PUT', `/api/domain/${row.id}/update`, { body: { domain: 'https://b.example' } });
      expect(res.json).toEqual({ error: 1, message: 'No data sent.' });
    });

    it('refuses a bad URL on update and keeps the old one', async () => {
      const row = ctx.backend.store.addDomain(1, { domain: 'https://a.example', redirectroot: 'https://r.example' });
      const res = await ctx.api('PUT', `/api/domain/${row.id}/update`, { body: { redirectroot: 'r.example' } });
      expect(res.json).toEqual({ error: 1, message: 'A valid url is required for the root domain.' });
      expect(ctx.backend.store.domains.get(row.id)?.redirectroot).toBe('https://r.example');
    });

    it.each(['PUT', 'DELETE'])('answers "Domain not found" to %s on an unknown id', async (method) => {
      const path = method === 'PUT' ? '/api/domain/99/update' : '/api/domain/99/delete';
      const res = await ctx.api(method, path, method === 'PUT' ? { body: { redirectroot: 'https://r.example' } } : {});
      expect(res.json).toEqual({ error: 1, message: 'Domain not found. Please try again.' });
    });

    it('deletes a domain', async () => {
      const row = ctx.backend.store.addDomain(1, { domain: 'https://a.example' });
      const res = await ctx.api('DELETE', `/api/domain/${row.id}/delete`);
      expect(res.json).toEqual({ error: 0, message: 'Domain has been deleted successfully.' });
      expect(ctx.backend.store.domains.has(row.id)).toBe(false);
    });
  },
  manualClock(),
);
