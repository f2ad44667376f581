import ConcordApp
import ConcordWire

extension SampleApp {
  /// How `concord attach` shows the sample app's scopes and reads what people type.
  public static var client: ClientApp {
    ClientApp(
      hosting: hosted,
      scopes: [
        .scope(
          "counter",
          render: { (count: Int, context: RenderContext<Int>) -> [String] in
            let pending: String = context.confirmed == nil ? "" : " " + RenderContext<Int>.pendingMark + " pending"
            return ["", "  Count: \u{1B}[1m\(count)\u{1B}[0m" + pending]
          },
          commands: [
            WindowCommand<CounterAction>("inc", help: "add one", example: "inc") { _ in .increment },
            WindowCommand("dec", help: "take one away (not below zero)", example: "dec") { _ in .decrement },
            WindowCommand("add", usage: "add N", help: "add N", example: "add 5") { words in .add(amount: try words.integer(0, "N")) },
          ]),
        .scope(
          "notes",
          render: { (notes: [Note], context) -> [String] in
            let pending = context.pending(notes, in: { $0 })
            return notes.isEmpty
              ? ["", "  (no notes yet: add one with `add TEXT`)"]
              : notes.map { line(for: $0, width: context.width, pending: pending.contains($0.id)) }
          },
          commands: [
            WindowCommand<NotesAction>("add", usage: "add TEXT", help: "add a note", example: "add buy milk") { words in
              .add(text: try words.rest(from: 0, "the note's text"))
            },
            WindowCommand("remove", usage: "remove ID", help: "remove a note", example: "remove 1") { words in
              .remove(id: try words.integer(0, "ID"))
            },
          ]),
        .scope(
          "note",
          render: { note, context in ["", line(for: note, width: context.width, pending: context.confirmed != nil)] },
          commands: [
            WindowCommand<NoteAction>("edit", usage: "edit TEXT", help: "change the text", example: "edit buy oat milk") { words in
              .edit(text: try words.rest(from: 0, "the new text"))
            },
            WindowCommand("toggle", help: "mark done, or not done", example: "toggle") { _ in .toggle },
          ]),
        // presence has no look of its own: a generic window (an outline; read only).
      ])
  }

  /// One note; a pending one is marked ◌.
  static func line(for note: Note, width: Int, pending: Bool = false) -> String {
    TextFit.cut("\(pending ? RenderContext<Note>.pendingMark : " ") \(note.done ? "[x]" : "[ ]") \(note.id). \(note.text)", width)
  }
}
