import Concord

extension Board {
  /// How many of the board's past states undo can go back through.
  public static let undoDepth = 50

  /// The board with undo and redo through the core's ``History``, for one person at a time.
  ///
  /// A person can undo only their own last change, and only while it is the board's last
  /// change: undoing it after someone else changed the board would take the other person's
  /// change back too (the history keeps whole boards), so that undo is refused and says why.
  /// Time travel never takes back who joined, and never reuses a card's number.
  public static let undoable: Reducer<History<Board>, Authored<BoardAction>, Void> = {
    let history = reducer.history(maxDepth: undoDepth, records: { $0.action.isUndoable }, keeping: { arrived, present in
      arrived.people = present.people
      arrived.nextCardID = present.nextCardID
      arrived.nextColumnID = present.nextColumnID
    })
    return Reducer { board, authored, _ in
      let user = authored.user
      switch authored.action {
      case .undo:
        guard board.canUndo, let editor = board.present.lastEditor else { return .refuse("there is nothing to undo") }
        guard editor == user else {
          let yours = board.past.contains { $0.lastEditor == user }
          return .refuse(
            yours
              ? "\(editor) changed the board after your last change; undoing yours now would undo theirs too"
              : "you have no change to undo; the last one is \(editor)'s")
        }
        return history.reduce(into: &board, action: .undo, environment: ()).map { _ in authored }
      case .redo:
        guard let next = board.future.first else { return .refuse("there is nothing to redo") }
        guard next.lastEditor == user else {
          return .refuse("the change to redo is \(next.lastEditor ?? "someone else")'s, not yours")
        }
        return history.reduce(into: &board, action: .redo, environment: ()).map { _ in authored }
      default:
        return history.reduce(into: &board, action: .action(authored), environment: ()).map { action in
          if case let .action(inner) = action { return inner }
          return authored
        }
      }
    }
  }()
}
