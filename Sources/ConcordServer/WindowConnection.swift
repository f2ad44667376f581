import ConcordWire
import Foundation
import Logging
import NIOCore

/// Serves one connection: its lines are read and handled in order, and its outbox is written
/// as fast as the peer reads, so a slow window slows no one else.
enum WindowConnection {
  /// A window that has not taken a single byte for this long while messages wait is dropped.
  static let stuckTimeout: Duration = .seconds(30)

  static func serve(
    _ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, link: WindowLink, host: any WindowHost, logger: Logger
  ) async {
    do {
      try await channel.executeThenClose { inbound, outbound in
        try await withThrowingTaskGroup { group in
          group.addTask {
            await readMessages(from: inbound, link: link, host: host)
            // The writer sends what is queued, then the connection closes.
            link.outbox.finish()
          }
          group.addTask { await watchForStuckWriter(link) }
          defer { group.cancelAll() }
          // Ends when the outbox is finished and written out, or throws when the peer is gone.
          try await writeOutbox(of: link, to: outbound)
        }
      }
    } catch {
      logger.debug("window \(link.id): \(error)")
    }
    await host.disconnected(link)
  }

  private static func writeOutbox(of link: WindowLink, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>) async throws {
    let coding = WireCoding()
    for await _ in link.outbox.signals {
      try await writeQueued(link, to: outbound, coding: coding)
    }
    try await writeQueued(link, to: outbound, coding: coding)
  }

  private static func writeQueued(
    _ link: WindowLink, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, coding: WireCoding
  ) async throws {
    while let message = link.outbox.next() {
      link.writeStarted()
      try await outbound.write(ByteBuffer(bytes: try coding.line(for: message)))
      link.writeFinished()
    }
  }

  private static func readMessages(
    from inbound: NIOAsyncChannelInboundStream<ByteBuffer>, link: WindowLink, host: any WindowHost
  ) async {
    var greeted = false
    let coding = WireCoding()
    do {
      for try await line in inbound {
        let message: ClientMessage
        do {
          message = try coding.decode(ClientMessage.self, from: Array(line.readableBytesView))
        } catch {
          link.send(.error(code: .badMessage, message: error.description, cseq: nil))
          continue
        }
        guard greeted else {
          guard case let .hello(version, _) = message, version == WireProtocol.version else {
            link.send(
              .error(
                code: .handshake,
                message: #"say hello first, in protocol \#(WireProtocol.version): {"type":"hello","protocol":\#(WireProtocol.version)}"#,
                cseq: nil))
            continue
          }
          greeted = true
          link.send(.welcome(await host.welcome(for: link)))
          continue
        }
        await host.handle(message, from: link)
      }
    } catch WireError.lineTooLong {
      link.send(.error(code: .tooLong, message: WireError.lineTooLong.description + "; closing", cseq: nil))
    } catch {
      // The peer went away mid-line, or the connection failed: nothing to answer.
    }
  }

  /// A peer that stops reading blocks its writer; after a while it is let go.
  private static func watchForStuckWriter(_ link: WindowLink) async {
    while !Task.isCancelled {
      try? await Task.sleep(for: .seconds(1))
      if let writing = link.timeInCurrentWrite, writing > stuckTimeout {
        link.disconnect(reason: "it has not read anything for \(stuckTimeout)")
        return
      }
    }
  }
}
