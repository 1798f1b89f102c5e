import { describe, expect, it } from '@jest/globals';
import { ParentPasses } from './parent-passes.js';

/** Passes over `group` whose on-demand listings are counted. */
function passes(parents: string[] = ['group']) {
  const listed: string[] = [];
  const sut = new ParentPasses<string, string>(new Set(parents), async (type) => {
    listed.push(type);
    return [`${type}-listed`];
  });
  return { sut, listed };
}

describe('ParentPasses', () => {
  it("hands a child the references of its parent's complete pass, without listing the parent again", async () => {
    const { sut, listed } = passes();
    const pass = sut.begin('group');
    const waiting = sut.refsOf('group');
    pass?.keep('00g1');
    pass?.keep('00g2');
    pass?.complete();
    expect(await waiting).toEqual(['00g1', '00g2']);
    expect(listed).toEqual([]);
  });

  it('fails the waiting children of a pass that stopped early', async () => {
    const { sut } = passes();
    const pass = sut.begin('group');
    const waiting = sut.refsOf('group');
    pass?.keep('00g1');
    pass?.stop(new Error('the group listing stopped before its end'));
    await expect(waiting).rejects.toThrow('stopped before its end');
  });

  it('lists a parent whose part is not collected once, on demand, and begins no pass of it after', async () => {
    const { sut, listed } = passes();
    expect(await sut.refsOf('group')).toEqual(['group-listed']);
    expect(await sut.refsOf('group')).toEqual(['group-listed']);
    expect(listed).toEqual(['group']);
    expect(sut.begin('group')).toBeUndefined();
  });

  it('begins no pass for a type no child needs', () => {
    expect(passes().sut.begin('user')).toBeUndefined();
  });

  it('stops waiting when the signal aborts', async () => {
    const { sut } = passes();
    sut.begin('group');
    const controller = new AbortController();
    const waiting = sut.refsOf('group', controller.signal);
    controller.abort(new Error('backup cancelled'));
    await expect(waiting).rejects.toThrow('backup cancelled');
  });
});
