import ArgumentParser
import ConcordApp
import ConcordClient
import ConcordDaemonCommand
import ConcordLog
import ConcordTerminal
import ConcordWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME attach SCOPE`: a live window on one scope.
struct AttachCommand: ParsableCommand {
  static var configuration: CommandConfiguration {
    let examples = HelpExamples.current
    let name = examples.program
    return CommandConfiguration(
    commandName: "attach",
    abstract: "Open a live window on one scope: its state, redrawn as it changes, and a command line.",
    discussion: """
      Type actions in the scope's own words (`help` lists them) or as JSON; `q` (or quit) \
      and Enter, or Ctrl-C, leaves. PgUp/PgDn, the mouse wheel, and Home/End on an empty line \
      scroll (←/→ on an empty line, sideways); ←/→, Ctrl-A/E/W/K/U and Alt-B/F edit the line; Tab completes commands, card \
      numbers, columns, people and channels; ↑/↓ and Ctrl-R recall what was \
      typed before in this scope (kept in the home). `/open SCOPE` shows another scope in the \
      same window (`/join NAME` a chat channel). NO_COLOR turns colour off; with TERM=dumb \
      the window prints the state when it changes and reads commands line by line.

      What you type shows at once, marked pending (◌), computed by the app's own reducer; the \
      mark goes when the daemon confirms it. When the daemon is away the window shows the last \
      state it saw, marked OFFLINE, queues what you type and shows it pending; it reconnects by \
      itself and sends the queue. An action the daemon refuses on replay stays on screen, in \
      every window of the home, until `/dismiss`.

      With --json (or when standard output is not a terminal) it prints the scope's whole state \
      first (a snapshot line), then each update and answer as NDJSON, and reads actions as JSON \
      lines from standard input, for scripts; it exits 1 when the scope names nothing.

      \(examples.app.scopeLine)

      Examples:
        \(name) attach \(examples.first)
        \(name) attach \(examples.second)
        \(examples.scriptedAttach ?? "\(name) attach \(examples.first) --json < actions.jsonl")
      """) }

  @OptionGroup var options: HomeOptions

  @Argument(help: ArgumentHelp("The scope, such as \(HelpExamples.current.first)."), completion: ScopeCompletion.kind)
  var scope: String

  @Flag(help: "NDJSON in and out, for scripts.")
  var json = false

  func run() throws {
    let app = ProgramApp.current
    let window = try app.window(for: scope)
    if json || !Terminal.isInteractive {
      // A script is always given the whole state first: a `snapshot` line, never an update to a
      // state it does not have.
      let session = try WindowSession(home: options.layout, address: options.address, scope: scope, app: app.client, resumes: false)
      try JSONWindow(session: session, app: app).run()
    } else {
      let session = try WindowSession(home: options.layout, address: options.address, scope: scope, app: app.client)
      let environment = ProcessInfo.processInfo.environment
      // NO_COLOR (no-color.org): any value turns colour off; bold, dim and reverse stay.
      let colors = environment["NO_COLOR"].map(\.isEmpty) ?? true
      if environment["TERM"] == "dumb" {
        try LineWindow(session: session, window: window).run()
        return
      }
      do {
        let (home, address) = (options.layout, options.address)
        try TerminalWindow(session: session, window: window, scopes: app.scopeUsages, colors: colors) { scope in
          let window = try app.window(for: scope)
          return (try WindowSession(home: home, address: address, scope: scope, app: app.client), window)
        }.run()
      } catch is ScreenError {
        try LineWindow(session: session, window: window).run()
      }
    }
  }
}

/// `--json`: the daemon's messages as they come, plus the client's own status lines.
struct JSONWindow {
  let session: WindowSession
  let app: ProgramApp

  func run() throws {
    var events = try session.tickWaitingForConnection()
    if !session.isConnected, let seen = session.confirmed {
      emit(["type": "snapshot", "scope": .string(seen.scope), "seq": .integer(seen.seq), "state": seen.state, "offline": true])
      emit(["type": "status", "connected": false, "waiting": .integer(Int64(session.readWaitingCount()))])
    }
    var input: [UInt8] = []
    var inputClosed = false
    // Whether the daemon has answered the attach (the scope's state, or that it names nothing):
    // a script whose input ends at once is still given the state before the window closes.
    var attachAnswered = false
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      for event in events {
        show(event)
        if case let .message(message) = event, message.answersAttach(of: session.scope) { attachAnswered = true }
        // The scope names nothing (a card that is gone): there is nothing to watch.
        if case let .message(.error(.unknownScope, reason, nil)) = event { throw CommandFailure(message: reason) }
      }
      events = []
      // A connection through ssh still being made may yet take what waits.
      if inputClosed, !session.isConnecting, !session.isConnected || (!session.hasUnanswered && attachAnswered) {
        if !session.isConnected, session.readWaitingCount() > 0 {
          if let divergence = session.divergence, case .rolledBack = divergence {
            throw CommandFailure(message: "\(divergence); \(session.readWaitingCount()) action(s) wait in the outbox: \(divergence.decision)")
          }
          throw CommandFailure(message: "the daemon is unreachable; \(session.readWaitingCount()) action(s) wait in the outbox", code: .daemonUnreachable)
        }
        return
      }
      let ready = waitForInput(socket: session.fileDescriptor, milliseconds: 100, watchingInput: !inputClosed)
      if ready.socket { events += try session.socketReadable() }
      if ready.stdin, !inputClosed {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count <= 0 {
          inputClosed = true
        } else {
          input += buffer[..<count]
        }
        while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: input[..<newline], as: UTF8.self)
          input.removeFirst(newline + 1)
          guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
          do {
            let action = try app.action(typed: line, in: session.scope, program: ConcordProgram.running.name)
            events += try session.submit(action).events
          } catch let failure as CommandFailure {
            emit(["type": "client-error", "message": .string(failure.message)])
          } catch let error as ClientError {
            emit(["type": "client-error", "message": .string(error.description)])
          }
        }
      }
      events += try session.tick()
    }
  }

  private func show(_ event: WindowSession.Event) {
    switch event {
    case let .message(message):
      switch message {
      case .snapshot, .update, .ack, .refused, .error: Terminal.write(message.line)
      default: break
      }
    case let .connected(user, logID):
      emit(["type": "status", "connected": true, "user": .string(user), "log_id": .string(logID)])
    case let .disconnected(reason):
      emit(["type": "status", "connected": false, "reason": .string(reason), "waiting": .integer(Int64(session.readWaitingCount()))])
    case let .resent(action, outcome, entry):
      emit(["type": "replayed", "cseq": .integer(action.cseq), "scope": .string(action.scope), "outcome": .string(outcome.said(entry: entry))])
    case let .logDiverged(divergence):
      let waiting = JSONValue.integer(Int64(session.readWaitingCount()))
      switch divergence {
      case let .replaced(known, now):
        emit(["type": "log-replaced", "known": .string(known), "now": .string(now), "waiting": waiting])
      case let .rolledBack(logEndsAt, seen):
        emit([
          "type": "log-rolled-back", "message": .string("\(divergence)"), "log_ends_at": .integer(logEndsAt),
          "seen": .integer(seen), "waiting": waiting,
        ])
      }
    case let .queued(cseq, waiting):
      emit(["type": "queued", "cseq": .integer(cseq), "waiting": .integer(Int64(waiting))])
    case let .error(text):
      emit(["type": "client-error", "message": .string(text)])
    case .answered, .stateChanged:
      break
    }
  }

  private func emit(_ object: JSONValue) {
    Terminal.write(object.jsonText + "\n")
  }
}

extension ServerMessage {
  /// True for the daemon's answer to attaching `scope` with its state. (The other answer, that it
  /// names nothing, ends the window.)
  fileprivate func answersAttach(of scope: String) -> Bool {
    switch self {
    case let .snapshot(attached, _, _, _), let .update(attached, _, _): attached == scope
    default: false
    }
  }
}
