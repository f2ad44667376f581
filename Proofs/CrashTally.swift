import Foundation

/// What the crash suite counted, and whether every guarantee held.
struct Tally {
  var kills: [CrashSuite.KillMoment: Int] = [:]
  var missedAims = 0
  var boots: [UInt64] = []
  var fullReplays = 0
  var stateMismatches = 0
  var verifyFailures = 0
  /// Acknowledged actions missing from the log.
  var lostAcknowledged = 0
  /// Queued actions never applied once every outbox had drained.
  var lostQueued = 0
  var duplicates = 0
  var conflictingAnswers = 0
  /// Increments refused: the counter takes every one, so a refusal is an answer gone wrong.
  var refused = 0

  /// Window updates the watching windows read: a crash run whose windows saw nothing did not
  /// test the windows at all.
  var windowUpdates = 0

  /// The counts that must be zero, as the summary shows them.
  var mustBeZero: [(label: String, count: Int)] {
    [
      ("acknowledged actions lost", lostAcknowledged),
      ("queued actions never applied after draining", lostQueued),
      ("duplicates ((client, cseq) in the log twice)", duplicates),
      ("retries answered differently from the first answer", conflictingAnswers),
      ("increments refused", refused),
      ("logs failing verify", verifyFailures),
      ("boots whose state ≠ the log's replay (\(fullReplays) full replays)", stateMismatches),
    ]
  }

  var held: Bool { mustBeZero.allSatisfy { $0.count == 0 } && windowUpdates > 0 }

  /// Every action a client was told was applied must appear in the log exactly once.
  mutating func check(_ inspection: LogInspection, against senders: [OutboxClient]) {
    if inspection.verification != nil { verifyFailures += 1 }
    duplicates = max(duplicates, inspection.duplicates)
    // Each sender's counts run over the whole suite: their sum now is the suite's total so far.
    var lost = 0
    var conflicting = 0
    var refusals = 0
    for sender in senders {
      let progress = sender.progress
      for cseq in progress.acknowledged.keys
      where inspection.appearances[.init(client: sender.outbox.clientID, cseq: cseq)] == nil {
        lost += 1
      }
      conflicting += progress.conflictingAnswers
      refusals += progress.refused
    }
    lostAcknowledged = max(lostAcknowledged, lost)
    conflictingAnswers = max(conflictingAnswers, conflicting)
    refused = max(refused, refusals)
  }

  /// Once the outboxes are empty, every cseq a client queued is in the log exactly once.
  mutating func checkDrained(_ inspection: LogInspection, senders: [OutboxClient]) {
    for sender in senders {
      let queued = sender.progress.queued
      guard queued > 0 else { continue }
      for cseq in 1...queued {
        let seen = inspection.appearances[.init(client: sender.outbox.clientID, cseq: cseq)] ?? 0
        if seen == 0 { lostQueued += 1 }
      }
    }
  }

  func print(rounds: Int, senders: [OutboxClient], windows: WatchingWindows, final: LogInspection, counter: Int64) {
    let progress = senders.map(\.progress)
    let acknowledged = progress.reduce(0) { $0 + $1.acknowledged.count }
    let queued = progress.reduce(Int64(0)) { $0 + $1.queued }
    let sortedBoots = boots.sorted()
    let bootMedian = sortedBoots.isEmpty ? 0 : Double(sortedBoots[sortedBoots.count / 2]) / 1e6
    let bootMax = Double(sortedBoots.last ?? 0) / 1e6
    var table = SummaryTable(["crash suite", "figure", "must be"])
    table.add(["rounds (kill -9, restart)", "\(rounds)", ""])
    for moment in CrashSuite.KillMoment.allCases {
      table.add(["  killed \(moment.rawValue)", "\(kills[moment] ?? 0)", ""])
    }
    table.add(["  aimed kills that fell back to 'anyway'", "\(missedAims)", ""])
    table.add(["actions queued by \(senders.count) clients", "\(queued)", ""])
    table.add(["actions acknowledged", "\(acknowledged)", ""])
    table.add(["entries in the log at the end", "\(final.lastSeq)", ""])
    for (label, count) in mustBeZero { table.add([label, "\(count)", "0"]) }
    table.add(["final counter = increments queued", "\(counter) = \(queued)", "equal"])
    table.add(["boot after kill -9, median / max", String(format: "%.0f ms / %.0f ms", bootMedian, bootMax), ""])
    table.add(["window updates received (\(windows.attaches) attaches)", "\(windowUpdates)", "> 0"])
    table.print()
    Swift.print(held ? "\nevery guarantee held" : "\nA GUARANTEE DID NOT HOLD")
  }
}
