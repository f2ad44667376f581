import ConcordPlatform
import ConcordWire
import Logging
import NIOCore

/// Serves one window's connection: lines in, messages out.
///
/// It runs on the event loop the host runs on, so a line goes from the socket through the
/// reducer (`assumeIsolated`, no hop) and its answers go back out on one thread. Messages wait
/// in the window's ``ConnectionQueue`` while the socket is not writable; all that is queued in one
/// turn of the loop is written with one system call.
///
/// Backpressure: once the window has as many actions unanswered as ``WriterShare`` allows, the
/// socket is not read (the channel's `read` is deferred) until answers are written, and lines
/// already read wait (``ReadGate``). A peer that writes without reading fills its own socket,
/// not the daemon's commits: each group commit takes at most that many of its actions.
final class ConnectionHandler: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let host: any ConnectionHost
  private let registry: ConnectionRegistry
  private var context: ChannelHandlerContext?
  private var connection: Connection?
  private var greeted = false
  private var flushScheduled = false
  private var closing = false
  /// What the window sends: taken in, held, or left unread while it is saturated; and whether
  /// its input ended (once everything it sent is answered, the connection closes).
  private var gate = ReadGate<ByteBuffer>()
  /// What the window's liveness was last told of its socket: told again only when it changes
  /// (every write turn of every window asks, and telling takes the connection's lock).
  private var socketBlocked = false

  init(host: any ConnectionHost, registry: ConnectionRegistry) {
    self.host = host
    self.registry = registry
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
  }

  func channelActive(context: ChannelHandlerContext) {
    let peer = registry.peerCredentials(of: context.channel)
    guard registry.policy.allows(peer) else {
      registry.logger.notice("refused a connection from uid \(peer.uid) (pid \(peer.pid))")
      refuse(peer, context: context)
      return
    }
    let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
    let connection = registry.admit(peer: peer) { bound.value.closeAfterFlushing() }
    connection.queue.whenReady {
      if bound.eventLoop.inEventLoop {
        bound.value.scheduleFlush()
      } else {
        bound.eventLoop.execute { bound.value.scheduleFlush() }
      }
    }
    self.connection = connection
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    // No connection: a refused peer, whose lines are dropped until it is closed. Nothing is
    // taken after an over-long line either: the connection is closing.
    guard let connection, !gate.inputEnded else { return }
    connection.heard()
    if let line = gate.lineRead(unwrapInboundIn(data), saturated: isSaturated(connection)) {
      handle(line, from: connection)
    } else {
      connection.setInputPaused(true)
    }
  }

  func read(context: ChannelHandlerContext) {
    guard let connection else { return context.read() }
    if gate.readRequested(saturated: isSaturated(connection)) {
      context.read()
    } else {
      connection.setInputPaused(true)
    }
  }

  /// Handles the lines held while the window was saturated, as far as it no longer is; then
  /// reads again if a read was deferred.
  private func handleHeld(context: ChannelHandlerContext, connection: Connection) {
    // Every write turn of every window comes here (the fan-out too): most hold nothing.
    guard gate.isPaused else { return }
    while let line = gate.nextHeld(saturated: isSaturated(connection)) {
      handle(line, from: connection)
    }
    if gate.resumeReading(saturated: isSaturated(connection)) { context.read() }
    connection.setInputPaused(gate.isPaused)
  }

  /// Whether the window has as many actions unanswered as it may: then nothing more of what it
  /// sends is read until an answer is written.
  private func isSaturated(_ connection: Connection) -> Bool {
    let unanswered = connection.queue.unanswered
    // Under the smallest limit (a window has one action in flight) the clock is not read.
    return unanswered >= WriterShare.shared && unanswered >= registry.writers.limit(for: connection)
  }

  private func handle(_ line: ByteBuffer, from connection: Connection) {
    let message: ClientMessage
    do {
      message = try ClientMessage(line: line.readableBytesView)
    } catch {
      connection.send(.error(code: .badMessage, message: error.description, cseq: nil))
      return
    }
    guard greeted else {
      guard case let .hello(version, _, presence, interval) = message, version == WireProtocol.version else {
        let hello = #"{"type":"hello","protocol":\#(WireProtocol.version)}"#
        connection.send(.error(code: .handshake, message: "say hello first, in protocol \(WireProtocol.version): \(hello)", cseq: nil))
        return
      }
      greeted = true
      connection.announcesPresence = presence
      if interval > 0, let loop = context?.eventLoop {
        connection.queue.paceUpdates(every: .milliseconds(interval)) { [weak queue = connection.queue] nanoseconds in
          loop.scheduleTask(in: .nanoseconds(Int64(nanoseconds))) { [weak queue] in queue?.releaseHeldUpdates() }
        }
      }
      connection.send(.welcome(host.assumeIsolated { $0.welcome(for: connection) }))
      return
    }
    if case .send = message { registry.writers.sent(from: connection) }
    host.assumeIsolated { $0.handle(message, from: connection) }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case ChannelEvent.inputClosed = event {
      // Every line before the half-close was read (the line decoder passes them on first).
      gate.endInput()
      flushQueue()
    }
    context.fireUserInboundEventTriggered(event)
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if context.channel.isWritable {
      // The window took bytes: it is reading, however slowly, so the stuck rule's clock starts
      // again (`setBlocked(true)` keeps the first moment, for a window that never reads).
      setSocketBlocked(false)
      flushQueue()
    } else {
      setSocketBlocked(true)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if case WireError.lineTooLong = error, let connection {
      // Like a half-close: what was read before is still answered, then the connection closes.
      connection.send(.error(code: .tooLong, message: WireError.lineTooLong.description + "; closing", cseq: nil))
      gate.endInput()
      flushQueue()
    } else {
      registry.logger.debug("window \(connection?.id ?? "-"): \(error)")
      context.close(promise: nil)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    if let connection {
      host.assumeIsolated { $0.disconnected(connection) }
      registry.remove(connection)
    }
    // The connection's closures (its closer, its queue's write signal) hold this handler,
    // which holds the connection: let go of it, or every window that ever connected stays in
    // memory with its queue.
    connection = nil
    self.context = nil
    context.fireChannelInactive()
  }

  // MARK: - Writing

  /// Writes at the end of this turn of the loop, so that everything queued in it goes together
  /// (with the other windows written in this turn: ``PendingFlushes``).
  private func scheduleFlush() {
    guard !flushScheduled, context != nil else { return }
    flushScheduled = true
    registry.flushes.add(self)
  }

  /// Writes what the window's queue holds, as far as the socket takes it.
  func flushQueue() {
    flushScheduled = false
    guard let context, let connection, !closing else { return }
    while context.channel.isWritable {
      guard let buffer = nextBuffer(of: connection, allocator: context.channel.allocator) else { break }
      context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }
    setSocketBlocked(!context.channel.isWritable && !connection.queue.isEmpty)
    handleHeld(context: context, connection: connection)
    if gate.mayClose(queueEmpty: connection.queue.isEmpty) { closeOnceWritten(context: context) }
  }

  private func setSocketBlocked(_ blocked: Bool) {
    guard blocked != socketBlocked else { return }
    socketBlocked = blocked
    connection?.setBlocked(blocked)
  }

  /// Closes once the writes already handed to the channel are done: a peer that half-closed has
  /// been answered everything. An empty write completes after the ones before it, so the writes
  /// of the hot path need no promise of their own.
  private func closeOnceWritten(context: ChannelHandlerContext) {
    closing = true
    context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)))
      .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }

  /// What the queue holds, up to about 1 MiB, as one buffer; nil when it is empty.
  private func nextBuffer(of connection: Connection, allocator: ByteBufferAllocator) -> ByteBuffer? {
    var buffer: ByteBuffer?
    while (buffer?.readableBytes ?? 0) < WireLimits.maximumMessageBytes, let line = connection.queue.nextQueuedLine() {
      line.append(to: &buffer, allocator: allocator)
    }
    return buffer
  }

  /// Writes what is queued, then closes; a window that is not reading is closed at once.
  private func closeAfterFlushing() {
    guard let context, let connection, !closing else { return }
    closing = true
    guard context.channel.isWritable, let buffer = nextBuffer(of: connection, allocator: context.channel.allocator) else {
      context.close(promise: nil)
      return
    }
    context.writeAndFlush(wrapOutboundOut(buffer)).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
  }

  /// Tells a peer it may not connect, drops what it sends for a moment (a socket closed with
  /// unread input resets the connection, and the peer could lose the answer), then closes.
  private func refuse(_ peer: PeerCredentials, context: ChannelHandlerContext) {
    let message = ServerMessage.error(code: .handshake, message: "uid \(peer.uid) may not use this daemon", cseq: nil)
    var buffer = context.channel.allocator.buffer(capacity: 128)
    buffer.writeString(message.line)
    context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(500)) { context.close(promise: nil) }
  }
}
