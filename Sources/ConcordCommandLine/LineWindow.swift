import ConcordApp
import ConcordClient
import ConcordWindow
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `NAME attach` where the terminal cannot be driven full screen (`TERM=dumb`, or no
/// terminfo entry): the scope's state printed whenever it changes, without colour, and commands
/// read a line at a time, each answered on a line of its own.
struct LineWindow {
  let session: WindowSession
  let window: WindowScope

  func run() throws {
    var shown: [String]?
    var typed: [Int64: String] = [:]
    var input: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    var unconfirmed: String?
    var toldRefused: Int64 = 0
    var events = try session.tickWaitingForConnection()
    Terminal.writeLines(["\(session.scope) — type `help` for its words, `q` to leave"])
    while true {
      for event in events {
        if let line = Self.line(for: event, typed: &typed) { Terminal.writeLines([line]) }
        // The app's reducer may already see that the daemon will refuse it.
        if case let .queued(cseq, _) = event, let reason = session.readShown()?.refusals[cseq] {
          Terminal.writeLines(["  it will likely be refused: \(reason)"])
        }
      }
      events = []
      let lines = window.lines(of: session.readShown(), user: session.userName, width: Terminal.columns).map {
        $0.map { StyledLine($0).plain }
      }
      if let lines, lines != shown {
        Terminal.writeLines(lines)
        shown = lines
      }
      // Refused when resent, by this window or another of the home: said once each, kept until
      // `/dismiss`.
      for refused in (try? session.outbox.refusedOnResend()) ?? [] where refused.cseq > toldRefused {
        Terminal.writeLines([refused.notice])
        toldRefused = refused.cseq
      }
      let ready = waitForInput(socket: session.fileDescriptor, milliseconds: 250)
      if ready.socket { events += try session.socketReadable() }
      if ready.stdin {
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count <= 0 { return }
        input += buffer[..<count]
        while let newline = input.firstIndex(of: UInt8(ascii: "\n")) {
          let text = String(decoding: input[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
          input.removeFirst(newline + 1)
          if let waiting = unconfirmed {
            unconfirmed = nil
            if ["y", "yes"].contains(text.lowercased()) {
              try send(waiting)
            } else {
              Terminal.writeLines(["not done: \(waiting)"])
            }
            continue
          }
          switch text {
          case "": continue
          case "q", "quit", "exit": return
          case "help", "?": Terminal.writeLines(window.help + ["help", "/dismiss: put away refused actions", "q: leave"])
          case "/dismiss", "/dismiss all":
            try session.outbox.dismissRefused(upTo: toldRefused)
            Terminal.writeLines(["dismissed"])
          default:
            if let question = window.confirmation(text) {
              unconfirmed = text
              Terminal.writeLines(["\(question)? (y/N)"])
            } else {
              try send(text)
            }
          }
        }
      }
      events += try session.tick()
    }

    func send(_ text: String) throws {
      do {
        let sent = try session.submit(try window.action(typed: text, in: session.scope), typed: text)
        typed[sent.cseq] = text
        events += sent.events
      } catch let error as CommandError {
        Terminal.writeLines(["error: \(error.description)"])
      }
    }
  }

  /// What an event says to a person, on a line of its own; nil for what the state shows.
  static func line(for event: WindowSession.Event, typed: inout [Int64: String]) -> String? {
    switch event {
    case let .answered(cseq, .applied): "ok: " + (typed.removeValue(forKey: cseq) ?? "done")
    case let .answered(cseq, .refused(reason)): "refused: " + (typed.removeValue(forKey: cseq).map { "\($0): " } ?? "") + reason
    case .resent(_, .refused, _): nil  // told by its refusal notice, until dismissed
    case let .resent(action, _, _): "replayed: \(action.typed ?? action.action.jsonText) (\(action.scope))"
    case let .queued(_, waiting): "offline: queued (\(waiting) to send)"
    case let .disconnected(reason): "disconnected: \(reason)"
    case .connected: "connected"
    case let .logDiverged(divergence): "\(divergence): \(divergence.decision)"
    case let .error(text): "error: \(text)"
    case .stateChanged, .message: nil
    }
  }
}
