import Concord
import Foundation

/// A composed app in the terminal: type commands, watch the one Store change.
@main
struct CounterAppMain {
  static func main() async {
    let debugging = CommandLine.arguments.contains("--debug")
    let debug = DebugSwitch(isOn: debugging)
    let store = Store(
      initialState: History(AppState(), maxDepth: 50),
      reducer: undoableAppReducer,
      environment: .live,
      debug: .diffs { text in if debug.isOn { say(text) } }
    )
    say("Concord example: a counter and a to-do list composed into one Store.")
    say(Command.usage)
    let redraw = Task {
      for await state in await store.states() {
        say("\n" + render(state))
        prompt()
      }
    }
    for await line in standardInputLines() {
      switch Command.parse(line) {
      case let .failure(error):
        say("  ! \(error.message)")
        prompt()
      case .success(.help):
        say(Command.usage)
        prompt()
      case .success(.toggleDebug):
        debug.isOn.toggle()
        say("  debug output \(debug.isOn ? "on" : "off")")
        prompt()
      case .success(.quit):
        redraw.cancel()
        return
      case let .success(.send(action)):
        let task = await store.send(action)
        if let refusal = task.refusal {
          say("  ! refused: \(refusal.reason)")
          prompt()
        }
      }
    }
    redraw.cancel()
  }

  static func prompt() {
    FileHandle.standardOutput.write(Data("> ".utf8))
  }
}

/// Writes a line to standard output at once, so it interleaves correctly with the prompt.
func say(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

/// Whether action diffs are printed; flipped by the `debug` command.
final class DebugSwitch: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Bool
  init(isOn: Bool) { value = isOn }
  var isOn: Bool {
    get { lock.withLock { value } }
    set { lock.withLock { value = newValue } }
  }
}

/// Lines typed on standard input, read on a thread of their own so that a blocking read never
/// holds up the effects running on the concurrency pool.
func standardInputLines() -> AsyncStream<String> {
  AsyncStream { continuation in
    let reader = Thread {
      while let line = readLine() { continuation.yield(line) }
      continuation.finish()
    }
    reader.start()
  }
}

extension AppEnvironment {
  /// Saving and fetching facts without a network: a short pause stands in for the work.
  static let live = AppEnvironment(
    counter: CounterEnvironment(
      save: { _ in try await Task.sleep(for: .milliseconds(50)) },
      fact: { number in
        try await Task.sleep(for: .milliseconds(400))
        return describe(number)
      }
    ),
    todo: TodoEnvironment(clock: ContinuousClock())
  )
}

/// A fact about a number, worked out locally.
func describe(_ number: Int) -> String {
  if number < 2 { return "\(number) is neither prime nor composite" }
  let divisor = (2...max(2, Int(Double(number).squareRoot()))).first { number % $0 == 0 && $0 != number }
  if let divisor { return "\(number) is \(divisor) × \(number / divisor)" }
  return "\(number) is prime"
}
