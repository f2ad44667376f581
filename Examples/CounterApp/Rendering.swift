import Concord

/// Draws the app's state as a few lines of text.
func render(_ history: History<AppState>) -> String {
  let state = history.present
  let counter = state.counter
  var lines: [String] = []
  var counterLine = "  count: \(counter.count)"
  counterLine += "   saved: " + (counter.lastSaved.map(String.init) ?? "–")
  if counter.isFetchingFact {
    counterLine += "   fact: (fetching…)"
  } else if let fact = counter.fact {
    counterLine += "   fact: \(fact)"
  }
  lines.append(counterLine)
  lines.append("  to-dos:" + (state.list.todos.isEmpty ? " none yet (try: add Buy milk)" : ""))
  for todo in state.list.todos {
    var line = "    \(todo.id). [\(todo.isDone ? "x" : " ")] \(todo.title)"
    if todo.isRunning || todo.secondsSpent > 0 {
      line += "  (\(todo.isRunning ? "running, " : "")\(todo.secondsSpent)s)"
    }
    lines.append(line)
  }
  lines.append("  history: step \(history.currentStep) of \(history.timeline.count - 1)")
  return lines.joined(separator: "\n")
}
