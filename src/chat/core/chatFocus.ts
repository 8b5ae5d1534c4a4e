// Every command that opens the chat ends with focus in its input box, as VS Code's own Chat does:
// Ask Docs, Focus Chat Input, Ask About Selection, Add Selection, New Conversation, Open in Editor,
// and Show History once a conversation is picked. Where: the chat's editor tab when it is the one
// in view (the user chose it), else the side-bar view. The chat is shown with focus first (the
// webview takes the keyboard), then told to focus its input box (a page still loading gets that
// once it is ready: pageOutbox.ts).

/** Where the chat shows, as VS Code's wiring (../vscode/chatViews.ts) opens it. */
export interface ChatSurfaces {
  /** Whether the chat's editor tab is open and in view. */
  panelInView(): boolean;
  /** Shows the editor tab (creating it if needed), taking focus. */
  showPanel(): void;
  /** Shows the side-bar view, taking focus; resolves once the view exists. */
  showView(): Promise<void>;
}

export class ChatFocus {
  constructor(
    private readonly surfaces: ChatSurfaces,
    /** Tells the open chat pages to focus their input box; with `text`, to fill it. */
    private readonly focusInput: (text?: string) => void,
  ) {}

  /** Shows the chat where the user has it and puts focus in its input box; `text` fills the box. */
  async show(text?: string): Promise<void> {
    if (this.surfaces.panelInView()) this.surfaces.showPanel();
    else await this.surfaces.showView();
    this.focusInput(text);
  }

  /** Opens the chat in an editor tab, focus in its input box. */
  showInEditor(): void {
    this.surfaces.showPanel();
    this.focusInput();
  }
}
