import Concord

/// What a person can type into the example, parsed from one line.
enum Command: Equatable {
  case send(HistoryAction<AppAction>)
  case toggleDebug
  case help
  case quit

  static let usage = """
    commands:  +  -  fact          the counter (saved half a second after the last change)
               add TITLE           a new to-do
               done N | start N | stop N | rename N TITLE | rm N
               undo  redo  jump STEP   move through the history
               debug               show each action with its state diff
               quit
    """

  /// Parses a line, or says what is wrong with it.
  static func parse(_ line: String) -> Result<Command, ParseError> {
    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    guard let verb = words.first?.lowercased() else { return .failure(ParseError("Type a command, or help")) }
    let rest = words.dropFirst().joined(separator: " ")
    func todo(_ action: TodoAction) -> Result<Command, ParseError> {
      guard words.count >= 2, let id = Int(words[1]) else {
        return .failure(ParseError("\(verb) needs a to-do number, like: \(verb) 1"))
      }
      return .success(.send(.action(.list(.todos(.element(id: id, action: action))))))
    }
    switch verb {
    case "+", "inc", "increment": return .success(.send(.action(.counter(.increment))))
    case "-", "dec", "decrement": return .success(.send(.action(.counter(.decrement))))
    case "fact": return .success(.send(.action(.counter(.fetchFact))))
    case "add": return .success(.send(.action(.list(.add(rest)))))
    case "done": return todo(.toggle)
    case "start": return todo(.start)
    case "stop": return todo(.stop)
    case "rename":
      let title = words.dropFirst(2).joined(separator: " ")
      return todo(.rename(title))
    case "rm", "remove":
      guard words.count == 2, let id = Int(words[1]) else {
        return .failure(ParseError("rm needs a to-do number, like: rm 1"))
      }
      return .success(.send(.action(.list(.remove(id: id)))))
    case "undo": return .success(.send(.undo))
    case "redo": return .success(.send(.redo))
    case "jump":
      guard words.count == 2, let step = Int(words[1]) else {
        return .failure(ParseError("jump needs a step number, like: jump 0"))
      }
      return .success(.send(.jump(to: step)))
    case "debug": return .success(.toggleDebug)
    case "help", "?": return .success(.help)
    case "quit", "q", "exit": return .success(.quit)
    default: return .failure(ParseError("Unknown command \"\(verb)\". Type help for the list."))
    }
  }
}

struct ParseError: Error, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
}
