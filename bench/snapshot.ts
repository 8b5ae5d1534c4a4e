// The chat as the render benchmarks put it in the page: one turn asking the same question, with
// its answer's text so far. Built here and handed to page.evaluate, so every benchmark shows the
// webview the same conversation.

export function benchTurn(answerText: string, status: string) {
  return {
    id: 't1',
    question: 'How do I configure the relay?',
    context: [],
    answer: { parts: [{ kind: 'text', text: answerText }], sources: [], notices: [], status, jobs: [] },
  };
}

export function benchSnapshot(conversationId: string, turn: ReturnType<typeof benchTurn>, busy = false) {
  return { conversationId, title: 'Bench', turns: [turn], pendingContext: [], draft: '', busy, inputHistory: [], agentAvailable: true };
}
