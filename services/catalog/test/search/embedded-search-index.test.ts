import { tempDir } from '@forgeline/test-support/net';
import { EmbeddedSearchIndex } from '../../src/adapters/embedded-search/embedded-search-index.ts';
import { describeSearchIndex } from './search-index.contract.ts';

describeSearchIndex('embedded', async () => {
  const tmp = tempDir('forgeline-search-');
  const index = await EmbeddedSearchIndex.open(tmp.dir);
  return {
    index,
    cleanup: async () => {
      await index.close();
      tmp.remove();
    },
  };
});
