import { isValidBranchName } from '../../core/gitRef';
import { sameRepository } from '../../core/repositoryUrl';
import type { GitApi, GitRemote, GitRepository } from '../../../host/vscode/gitApi';

// The workspace repository whose remote is the job's `source.repository`. A remote counts by its
// fetch URL (or its push URL, when only that is set); `origin` wins when several repositories or
// remotes match, then the first the Git extension lists. A remote whose name git would not take
// in a refspec is skipped: its name goes into one.

export interface RepositoryMatch {
  repository: GitRepository;
  remote: string;
}

function matches(remote: GitRemote, url: string): boolean {
  return isValidBranchName(remote.name) && (sameRepository(url, remote.fetchUrl) || sameRepository(url, remote.pushUrl));
}

export function findRepository(api: GitApi, url: string): RepositoryMatch | undefined {
  const found: RepositoryMatch[] = [];
  for (const repository of api.repositories) {
    for (const remote of repository.state.remotes) {
      if (matches(remote, url)) found.push({ repository, remote: remote.name });
    }
  }
  return found.find((m) => m.remote === 'origin') ?? found[0];
}
