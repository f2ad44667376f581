import ConcordLog
import ConcordWire
import Foundation
import SampleApp
import Synchronization
import Testing

@testable import ConcordServer

/// When the log cannot be written, nothing is acknowledged and the daemon stops.
@Suite struct HostFailureTests {
  @Test func aFullDiskAcknowledgesNothingMoreAndStopsTheHost() async throws {
    // A database that may not grow past a few pages: a disk that fills up.
    let hosted = try InProcessHost(app: SampleApp.hosted, logOptions: ActionLog.Options(maximumPageCount: 40))
    defer { hosted.removeHome() }
    let log = hosted.log
    let fatal = Mutex<String?>(nil)
    let host = try hosted.makeHost(onFatal: { reason in fatal.withLock { $0 = reason } })
    let window = await hosted.window("w1", on: host, attachedTo: "notes")

    let text = String(repeating: "a long note ", count: 300)
    var answers: [ServerMessage] = []
    var cseq: Int64 = 0
    while fatal.withLock({ $0 }) == nil, cseq < 2000 {
      cseq += 1
      await host.handle(.send(scope: "notes", action: ["add": ["text": .string(text)]], client: "w", cseq: cseq), from: window)
      answers += try await window.queue.messages(untilAnswerTo: cseq)
    }
    #expect(fatal.withLock { $0 }?.contains("could not be written") == true)
    let acked = answers.compactMap { if case let .ack(_, cseq, seq) = $0 { (cseq, seq) } else { nil } }
    let refusedForDisk = answers.filter { if case .error(.unavailable, _, _) = $0 { true } else { false } }
    #expect(!acked.isEmpty)
    #expect(refusedForDisk.count == 1)
    // Everything acknowledged is in the log, which stays sound; nothing after the failure is.
    #expect(acked.map(\.1).max() == log.lastSeq)
    #expect(try log.verify().isSound)
    // A stopped host takes nothing more.
    await host.handle(.send(scope: "notes", action: ["add": ["text": "late"]], client: "w", cseq: cseq + 1), from: window)
    let late = try await window.queue.messages(untilAnswerTo: cseq + 1)
    #expect(late.contains { if case .error(.unavailable, _, _) = $0 { true } else { false } })
    // Nor does an effect that delivers late: it takes no daemon cseq the log will never hold.
    let daemonCseq = await host.cseqs.daemon
    await host.reduceAndQueueOwn(.counter(.increment), user: "concordd", scope: "")
    #expect(await host.cseqs.daemon == daemonCseq)
  }
}
