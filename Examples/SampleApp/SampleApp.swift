import Concord
import ConcordApp
import Foundation

/// A small app the daemon hosts until Workspace exists, and the app of the daemon's end-to-end
/// tests: a counter, a list of notes, one scope per note, and who is attached.
///
/// Scopes: `counter` (actions `{"increment":{}}`, `{"add":{"amount":5}}`, `{"decrement":{}}`),
/// `notes` (`{"add":{"text":"milk"}}`, `{"addLater":{"text":"milk","milliseconds":100}}`,
/// `{"remove":{"id":1}}`), `note:ID` (`{"edit":{"text":"oat milk"}}`, `{"toggle":{}}`) and
/// `presence` (read only).
public enum SampleApp {
  public struct State: Codable, Equatable, Sendable {
    public var counter = 0
    public var notes: [Note] = []
    public var nextNoteID = 1
    /// The scopes each window is attached to, by window id.
    public var presence: [String: [String]] = [:]
    public var boots = 0

    public init() {}
  }

  public struct Note: Codable, Equatable, Sendable, Identifiable {
    public var id: Int
    public var text: String
    public var done = false
  }

  /// What happens in the app: each case a single-key JSON object (`SampleApp+JSON.swift`).
  public enum Action: Equatable, Sendable {
    case counter(CounterAction)
    case notes(NotesAction)
    case note(id: Int, NoteAction)
    case attached(window: String, scope: String)
    case detached(window: String, scope: String)
    case booted
  }

  public enum CounterAction: Codable, Equatable, Sendable {
    case increment
    case decrement
    case add(amount: Int)
  }

  public enum NotesAction: Codable, Equatable, Sendable {
    case add(text: String)
    /// Adds the note after a delay, through an effect: it is logged when it happens.
    case addLater(text: String, milliseconds: Int)
    case remove(id: Int)
  }

  public enum NoteAction: Codable, Equatable, Sendable {
    case edit(text: String)
    case toggle
  }

  /// The counter's own reducer, which the app's runs.
  public static let counterReducer = Reducer<Int, CounterAction, Void> { count, action, _ in
    switch action {
    case .increment:
      return add(1, to: &count)
    case .decrement:
      guard count > 0 else { return .refuse("the counter is already at zero") }
      count -= 1
    case let .add(amount):
      return add(amount, to: &count)
    }
    return .none
  }

  /// Adds `amount`, refusing a sum past the ends of `Int`: a number typed by anyone must not
  /// stop the daemon.
  static func add(_ amount: Int, to count: inout Int) -> Effect<CounterAction> {
    let (sum, overflow) = count.addingReportingOverflow(amount)
    guard !overflow else { return .refuse("the counter cannot go past \(amount < 0 ? Int.min : Int.max)") }
    count = sum
    return .none
  }

  /// One note's own reducer.
  public static let noteReducer = Reducer<Note, NoteAction, Void> { note, action, _ in
    switch action {
    case let .edit(text): note.text = text
    case .toggle: note.done.toggle()
    }
    return .none
  }

  public static let reducer = Reducer<State, Action, Void> { state, action, _ in
    switch action {
    case let .counter(counterAction):
      return counterReducer.reduce(into: &state.counter, action: counterAction, environment: ())
        .map { Action.counter($0) }
    case let .notes(.add(text)):
      guard !text.isEmpty else { return .refuse("a note needs some text") }
      state.notes.append(Note(id: state.nextNoteID, text: text))
      state.nextNoteID += 1
    case let .notes(.addLater(text, milliseconds)):
      return .run { send in
        try await Task.sleep(for: .milliseconds(milliseconds))
        await send(.notes(.add(text: text)))
      }
    case let .notes(.remove(id)):
      guard state.notes.contains(where: { $0.id == id }) else { return .refuse("there is no note \(id)") }
      state.notes.removeAll { $0.id == id }
    case let .note(id, noteAction):
      guard let index = state.notes.firstIndex(where: { $0.id == id }) else {
        return .refuse("there is no note \(id)")
      }
      return noteReducer.reduce(into: &state.notes[index], action: noteAction, environment: ())
        .map { Action.note(id: id, $0) }
    case let .attached(window, scope):
      state.presence[window, default: []].append(scope)
    case let .detached(window, scope):
      state.presence[window]?.removeAll { $0 == scope }
      if state.presence[window]?.isEmpty == true { state.presence[window] = nil }
    case .booted:
      // Windows from before the restart are gone.
      state.presence = [:]
      state.boots += 1
    }
    return .none
  }

  /// The app as the daemon hosts it.
  public static var hosted: HostedApp<State, Action> {
    HostedApp(
      name: "Sample", version: version, initialState: State(), reducer: reducer, environment: (),
      scopes: [
        .scope("counter", state: \.counter, action: Action.counter),
        .scope("notes", state: \.notes, action: Action.notes),
        .scope(
          "note", parameter: { Int($0) }, placeholder: "ID", state: { state, id in state.notes.first { $0.id == id } },
          lift: { state, _, note in state.notes = [note] },
          action: { id, action in Action.note(id: id, action) }),
        .readOnly("presence") { $0.presence },
      ],
      lifecycle: AppLifecycle(
        booted: .booted,
        windowAttached: { .attached(window: $0.window, scope: $0.scope) },
        windowDetached: { .detached(window: $0.window, scope: $0.scope) }),
      migrateAction: migrate)
  }
}
