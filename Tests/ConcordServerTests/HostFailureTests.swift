import ConcordLog
import ConcordWire
import Foundation
import Logging
import SampleApp
import Synchronization
import Testing

@testable import ConcordServer

/// When the log cannot be written, nothing is acknowledged and the daemon stops.
@Suite struct HostFailureTests {
  @Test func aFullDiskAcknowledgesNothingMoreAndStopsTheHost() async throws {
    let home = DaemonProcess.makeHome()
    defer { try? FileManager.default.removeItem(at: home) }
    // A database that may not grow past a few pages: a disk that fills up.
    let log = try ActionLog.open(
      at: home.appending(path: "log.sqlite"), key: .file(home.appending(path: "key")),
      options: ActionLog.Options(maximumPageCount: 40))
    let fatal = Mutex<String?>(nil)
    let host = Host(
      app: SampleApp.hosted, log: log, booted: try SampleApp.hosted.boot(from: log, logger: Logger(label: "t")),
      snapshotInterval: 1_000_000, logger: Logger(label: "t"), onFatal: { reason in fatal.withLock { $0 = reason } })
    let window = WindowLink(id: "w1", peer: PeerCredentials(pid: 1, uid: getuid(), gid: getgid()), close: {})
    _ = await host.welcome(for: window)
    await host.handle(.attach(scope: "notes", since: nil), from: window)

    let text = String(repeating: "a long note ", count: 300)
    var answers: [ServerMessage] = []
    var cseq: Int64 = 0
    while fatal.withLock({ $0 }) == nil, cseq < 2000 {
      cseq += 1
      await host.handle(.send(scope: "notes", action: ["add": ["text": .string(text)]], client: "w", cseq: cseq), from: window)
      answers += try await window.outbox.messages(untilAnswerTo: cseq)
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
    let late = try await window.outbox.messages(untilAnswerTo: cseq + 1)
    #expect(late.contains { if case .error(.unavailable, _, _) = $0 { true } else { false } })
    // Nor does an effect that delivers late: it takes no daemon cseq the log will never hold.
    let daemonCseq = await host.cseqs.daemon
    await host.submitFromDaemon(.counter(.increment), user: "concordd", scope: "")
    #expect(await host.cseqs.daemon == daemonCseq)
  }
}
