import * as vscode from 'vscode';
import { SessionThreads } from '../../assistant/core/sessionThreads';
import { ThreadStore } from '../../assistant/core/threads';
import type { AssistantService } from '../../assistant/vscode/assistantService';
import type { AgentDelegation } from '../../common/delegation';
import type { AgentJobsService } from '../../common/jobs';
import type { Log } from '../../host/vscode/log';
import { DocsTool, TOOL_NAME } from './docsTool';
import { FIX_DOCS_TOOL } from '../core/fixDocsTool';
import { FixDocsTool } from './fixDocsTool';
import { FixDrafts } from '../core/fixDrafts';
import { registerMcpProvider } from './mcpProvider';
import { DocsParticipant, PARTICIPANT_ID, type DocsResultMetadata } from './participant';

// The docs inside VS Code's own Chat and agent mode: the @docs participant, the #docs and
// #fixDocs tools and the docs site's MCP server. Like the chat view, it asks through the one
// Assistant, and gets the agent only as AgentJobsService and AgentDelegation (src/common).

export interface ParticipantServices {
  assistant: AssistantService;
  log: Log;
  jobs: AgentJobsService;
  delegation: AgentDelegation;
}

export function registerParticipantFeature(context: vscode.ExtensionContext, services: ParticipantServices): vscode.Disposable {
  const drafts = new FixDrafts();
  const threads = new ThreadStore(new SessionThreads(context.workspaceState));
  const fixDocs = new FixDocsTool(services.delegation);
  const docs = new DocsParticipant({ assistant: services.assistant.assistant, log: services.log, jobs: services.jobs, threads, drafts, fixDocs });
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, docs.handler);
  participant.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'icon.png');
  participant.followupProvider = {
    provideFollowups(result) {
      const meta = result.metadata as DocsResultMetadata | undefined;
      if (result.errorDetails || !meta?.draft) return [];
      return [{ prompt: '', command: 'fix', label: vscode.l10n.t('Fix this in the docs') }];
    },
  };
  return vscode.Disposable.from(
    participant,
    // The answer's button: the draft it names, reviewed before anything is sent.
    vscode.commands.registerCommand('docsAssistant.participant.fixAnswer', async (draftId?: unknown) => {
      const launch = drafts.launchFor(draftId);
      if (!launch) {
        void vscode.window.showInformationMessage(vscode.l10n.t('That answer is from an earlier window. Type @docs /fix in its chat to fix the docs from it.'));
        return;
      }
      await services.jobs.launch(launch);
    }),
    vscode.lm.registerTool(TOOL_NAME, new DocsTool(services.assistant.assistant)),
    vscode.lm.registerTool(FIX_DOCS_TOOL, fixDocs),
    registerMcpProvider(services.log),
  );
}
