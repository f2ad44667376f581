import ConcordClient
import ConcordLog
import ConcordPlatform
import ConcordWire
import Foundation
import Synchronization

/// A client as `concord` is one: its own home and outbox, sending the counter's `increment`
/// one at a time through `OutboxSync`, queueing offline while the daemon is away and draining
/// the queue when it comes back. It runs on its own thread until told to stop.
final class OutboxClient: Sendable {
  let outbox: Outbox
  private let socket: URL
  private let state = Mutex(Progress())

  struct Progress: Sendable {
    var queued: Int64 = 0
    /// The seq each acknowledged cseq was applied at.
    var acknowledged: [Int64: Int64] = [:]
    /// Answers that disagreed with an earlier answer to the same cseq.
    var conflictingAnswers = 0
    var highestSeq: Int64 = 0
    var refused = 0
  }


  init(home: URL, socket: URL) throws {
    outbox = try Outbox.open(home: ConcordHome(home))
    self.socket = socket
  }

  var progress: Progress { state.withLock { $0 } }

  /// Sends until `mode` says stop; in `.drain` it stops once its outbox is empty.
  func run(mode: ClientMode) {
    var connection: ClientConnection?
    var attached = Set<String>()
    while true {
      let now = mode.current
      if now == .stop { break }
      if now == .hold {
        connection?.close()
        connection = nil
        usleep(5_000)
        continue
      }
      let pending = (try? outbox.count()) ?? 0
      if now == .drain && pending == 0 { break }
      // One new action at a time while connected; up to three wait in the outbox offline.
      if now == .run && (connection != nil ? pending == 0 : pending < 3) { enqueue() }
      if connection == nil {
        connection = try? ClientConnection(socket: socket, timeout: 2, presence: true)
        attached = []
        if connection == nil {
          usleep(20_000)
          continue
        }
      }
      do {
        _ = try OutboxSync.run(outbox, over: connection!, attached: &attached, onResult: { action, outcome, entry in
          record(action.cseq, outcome, entry: entry)
        })
      } catch {
        connection?.close()
        connection = nil
      }
    }
    connection?.close()
  }

  private func enqueue() {
    guard (try? outbox.enqueue(scope: "counter", action: ["increment": [:]])) != nil else { return }
    state.withLock { $0.queued += 1 }
  }

  private func record(_ cseq: Int64, _ outcome: ActionOutcome, entry: Int64?) {
    guard outcome == .applied, let seq = entry else {
      state.withLock { $0.refused += 1 }
      return
    }
    state.withLock {
      if let earlier = $0.acknowledged[cseq], earlier != seq { $0.conflictingAnswers += 1 }
      $0.acknowledged[cseq] = seq
      $0.highestSeq = max($0.highestSeq, seq)
    }
  }
}

/// What every client of a suite should be doing, switched by the suite's thread: keep sending,
/// hold off (the daemon is being checked), drain what is queued and stop, or stop now.
final class ClientMode: Sendable {
  enum Mode: Int { case run, hold, drain, stop }

  private let raw = Atomic<Int>(Mode.run.rawValue)

  var current: Mode { Mode(rawValue: raw.load(ordering: .acquiring)) ?? .stop }

  func set(_ mode: Mode) { raw.store(mode.rawValue, ordering: .releasing) }
}
