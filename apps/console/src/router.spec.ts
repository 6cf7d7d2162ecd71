import { matchRoute, pathOf, sectionOf } from './router.js';

describe('matchRoute', () => {
  it('maps every console path to its page, with decoded parameters', () => {
    expect(matchRoute('/')).toEqual({ page: 'models' });
    expect(matchRoute('/models')).toEqual({ page: 'models' });
    expect(matchRoute('/models/coulomb-blockade-peak-detector-v2')).toEqual({ page: 'model', modelId: 'coulomb-blockade-peak-detector-v2' });
    expect(matchRoute('/results/')).toEqual({ page: 'results' });
    expect(matchRoute('/results/0b6c1c2e-1111-4222-8333-444455556666')).toEqual({ page: 'result', resultId: '0b6c1c2e-1111-4222-8333-444455556666' });
    expect(matchRoute('/qpus')).toEqual({ page: 'qpus' });
    expect(matchRoute('/assistant')).toEqual({ page: 'assistant' });
    expect(matchRoute('/lab-streams')).toEqual({ page: 'lab-streams' });
    expect(matchRoute('/lab-streams/lab-a/pinch%20off')).toEqual({ page: 'lab-stream', lab: 'lab-a', name: 'pinch off' });
    expect(matchRoute('/admin')).toEqual({ page: 'admin' });
  });

  it('answers not-found for anything else, and for malformed escapes', () => {
    expect(matchRoute('/nope')).toEqual({ page: 'not-found', path: '/nope' });
    expect(matchRoute('/models/a/b')).toEqual({ page: 'not-found', path: '/models/a/b' });
    expect(matchRoute('/results/%E0%A4%A')).toEqual({ page: 'not-found', path: '/results/%E0%A4%A' });
  });

  it('puts detail pages under their section, and encodes path segments', () => {
    expect(sectionOf({ page: 'result', resultId: 'x' })).toBe('results');
    expect(sectionOf({ page: 'lab-stream', lab: 'a', name: 'b' })).toBe('lab-streams');
    expect(sectionOf({ page: 'not-found', path: '/x' })).toBeUndefined();
    expect(pathOf('lab-streams', 'lab a', 'x/y')).toBe('/lab-streams/lab%20a/x%2Fy');
  });
});
