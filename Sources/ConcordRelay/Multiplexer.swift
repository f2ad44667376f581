#if canImport(Glibc)
import Glibc
#endif

/// Many connections carried over one trunk (one ssh channel), at either end of it: the laptop's
/// relay (its windows' connections) and `concord dial-stdio --mux` on the server (a connection to
/// the daemon for each). Each connection is a channel; the frames say what becomes of it
/// (``MuxFrame``).
///
/// Nothing here waits on one descriptor while others have work: every descriptor is
/// non-blocking, what cannot be written yet waits in a queue, and a channel whose queue grows
/// past ``pauseBytes`` asks the other end to pause it, so one window that stops reading holds
/// up no other. The end that owns the run loop (``MuxServer``, ``Relay``) says what an
/// `open` and an `opened` mean.
///
/// Why one trunk: OpenSSH spends about 25 µs in each of `ssh` and `sshd` on every message it
/// carries, whatever its size; the windows of one laptop, answered together by one group
/// commit, cross it as one message instead of one each.
final class Multiplexer {
  /// A channel's bytes waiting for its descriptor, past which the other end is asked to pause.
  static let pauseBytes = 256 * 1024
  /// Past this a channel's other end has ignored a pause: the channel is closed. A pause waits
  /// behind up to ``trunkBytes`` of this end's frames and ssh's own window (2 MiB), while the
  /// other end may send faster than this one can: far above what an obedient end sends after it.
  static let dropBytes = 64 * 1024 * 1024
  /// Frames waiting for the trunk, past which no channel is read until it drains.
  static let trunkBytes = 1024 * 1024

  struct Channel {
    /// From the descriptor to the trunk.
    enum ReadSide: Equatable {
      case reading
      /// The other end asked for no more data until it says `resume`.
      case pausedByPeer
      /// This end reached the descriptor's end (and said `end`), or the other end closed it.
      case ended
    }

    /// From the trunk to the descriptor.
    enum WriteSide: Equatable {
      case writing
      /// The other end said `end`: the descriptor's write side is shut once `pending` drains.
      case ending
      case shut
      /// Writes to the descriptor failed (its reader closed): what comes for it is dropped, but
      /// what it still has to say — a daemon's last error, written before it closed — is read
      /// to its end and passed on, as a socket of its own would give it. `peerEnded`: the other
      /// end had said `end` (else it is told to stop sending).
      case broken(peerEnded: Bool)
    }

    /// Whether this end asked the other to pause: its bytes wait past ``pauseBytes``.
    enum Flow: Equatable {
      case flowing
      case pausedPeer
    }

    var fd: Int32
    var pending = ByteQueue()
    var read = ReadSide.reading
    var write = WriteSide.writing
    var flow = Flow.flowing

    /// Nothing more will be written to the descriptor.
    var doneWriting: Bool { write != .writing }
    var readEnded: Bool { read == .ended }

    /// The other end said `end`.
    mutating func peerEnded() {
      switch write {
      case .writing: write = .ending
      case .broken: write = .broken(peerEnded: true)
      case .ending, .shut: break
      }
    }

    /// A write to the descriptor failed.
    mutating func broke() {
      if case .broken = write { return }
      write = .broken(peerEnded: write != .writing)
    }

    /// The other end closed the channel: nothing more comes from it or goes to it.
    mutating func peerClosed() {
      read = .ended
      peerEnded()
    }

    /// The other end asked for a pause (`paused`), or to resume.
    mutating func peerPaused(_ paused: Bool) {
      switch (read, paused) {
      case (.reading, true): read = .pausedByPeer
      case (.pausedByPeer, false): read = .reading
      default: break
      }
    }

    /// After a write to the descriptor, with `waiting` bytes left for it: the frame that asks
    /// the other end to pause (past ``Multiplexer/pauseBytes``) or to resume (all written),
    /// when that changed.
    mutating func flow(waiting: Int) -> MuxFrame.Kind? {
      if waiting > Multiplexer.pauseBytes, flow == .flowing {
        flow = .pausedPeer
        return .pause
      }
      if waiting == 0, flow == .pausedPeer {
        flow = .flowing
        return .resume
      }
      return nil
    }

    /// Whether the descriptor's write side is to be shut now: the other end said `end` and all
    /// it sent is written.
    mutating func shutsWriting(waiting: Int) -> Bool {
      guard waiting == 0, write == .ending else { return false }
      write = .shut
      return true
    }

    /// Whether the channel is done both ways, with `waiting` bytes left for the descriptor.
    func isFinished(waiting: Int) -> Bool { waiting == 0 && doneWriting && readEnded }

    /// When it is finished: whether the other end, still sending to a descriptor that took no
    /// more, must be told to stop.
    var tellsPeerToStop: Bool { write == .broken(peerEnded: false) }
  }

  let trunkInput: Int32
  let trunkOutput: Int32
  var channels: [UInt32: Channel] = [:]
  var trunk = ByteQueue()
  var reader = MuxFrameReader()
  private var chunk = [UInt8](repeating: 0, count: MuxFrame.maximumPayload)
  /// The channel of each entry of the last poll set (nil for the trunk and `extra`): built with
  /// the set, so a wake-up finds its channels without a lookup table made per poll.
  private var polled: [UInt32?] = []
  /// The trunk reached its end or failed: the run ends.
  private(set) var trunkEnded = false
  /// Why the trunk was ended here: what came on it was not frames (the server's shell printed
  /// something, or its `concord` is another program).
  private(set) var malformed: String?

  init(trunkInput: Int32, trunkOutput: Int32) {
    self.trunkInput = trunkInput
    self.trunkOutput = trunkOutput
    Self.makeNonBlocking(trunkInput)
    Self.makeNonBlocking(trunkOutput)
  }

  static func makeNonBlocking(_ fd: Int32) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

  /// Starts carrying `fd` as `channel`.
  func add(_ fd: Int32, as channel: UInt32) {
    Self.makeNonBlocking(fd)
    channels[channel] = Channel(fd: fd)
  }

  /// Sends `frame` to the other end.
  func send(_ frame: MuxFrame) { trunk.appendFrame(frame) }

  /// Ends `channel` here, telling the other end why unless it told us.
  func close(_ channel: UInt32, saying reason: String? = nil) {
    guard let removed = channels.removeValue(forKey: channel) else { return }
    Glibc.close(removed.fd)
    if let reason { send(MuxFrame(channel: channel, kind: .close, payload: Array(reason.utf8))) }
  }

  // MARK: The loop's two halves

  /// What to wait for: the trunk, each channel, and `extra` (a listener); nil events are skipped.
  func pollSet(extra: [pollfd] = []) -> [pollfd] {
    var set = extra
    polled.removeAll(keepingCapacity: true)
    let trunkBusy = trunk.count >= Self.trunkBytes
    if trunkInput == trunkOutput {
      set.append(pollfd(fd: trunkInput, events: Int16(POLLIN) | (trunk.isEmpty ? 0 : Int16(POLLOUT)), revents: 0))
    } else {
      set.append(pollfd(fd: trunkInput, events: Int16(POLLIN), revents: 0))
      if !trunk.isEmpty { set.append(pollfd(fd: trunkOutput, events: Int16(POLLOUT), revents: 0)) }
    }
    polled.append(contentsOf: repeatElement(nil, count: set.count))
    for (number, channel) in channels {
      var events: Int16 = 0
      if channel.read == .reading, !trunkBusy { events |= Int16(POLLIN) }
      if !channel.pending.isEmpty { events |= Int16(POLLOUT) }
      guard events != 0 else { continue }
      set.append(pollfd(fd: channel.fd, events: events, revents: 0))
      polled.append(number)
    }
    return set
  }

  /// Does what `ready` (the poll set, after `poll`) says can be done. Every frame but `data` is
  /// shown to `handle` first, the end's own say: true when it has dealt with the frame.
  func serve(_ ready: [pollfd], handle: (MuxFrame) -> Bool) {
    for (index, entry) in ready.enumerated() where entry.revents != 0 {
      if entry.fd == trunkInput || entry.fd == trunkOutput {
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0, entry.fd == trunkInput { readTrunk(handle: handle) }
      } else if index < polled.count, let number = polled[index], channels[number]?.fd == entry.fd {
        // (A channel ended and another opened on its number in this turn is not this entry's.)
        if entry.revents & Int16(POLLOUT | POLLERR | POLLHUP) != 0 { flush(number) }
        if entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readChannel(number) }
      }
    }
    if !trunk.isEmpty, !trunk.write(to: trunkOutput) { trunkEnded = true }
  }

  private func readTrunk(handle: (MuxFrame) -> Bool) {
    let count = chunk.withUnsafeMutableBytes { Glibc.read(trunkInput, $0.baseAddress, $0.count) }
    if count < 0, errno == EAGAIN || errno == EINTR { return }
    guard count > 0 else {
      trunkEnded = true
      return
    }
    reader.append(chunk[..<count])
    do {
      while let frame = try reader.next() { receive(frame, handle: handle) }
    } catch {
      malformed = error.description
      trunkEnded = true
    }
  }

  private func receive(_ frame: MuxFrame, handle: (MuxFrame) -> Bool) {
    let number = frame.channel
    if frame.kind != .data, handle(frame) { return }
    switch frame.kind {
    case .data:
      guard channels[number] != nil else { return }  // closed here; the other end will hear
      channels[number]!.pending.append(frame.payload)
      flush(number)
    case .end:
      channels[number]?.peerEnded()
      flush(number)
    case .close:
      channels[number]?.peerClosed()
      if let channel = channels[number], channel.pending.isEmpty {
        channels[number] = nil
        Glibc.close(channel.fd)
      }
    case .pause: channels[number]?.peerPaused(true)
    case .resume: channels[number]?.peerPaused(false)
    case .open, .opened: break
    }
  }

  /// Writes what waits for `number`'s descriptor; pauses or resumes the other end by how much
  /// is left, and ends the channel once both ways are done.
  func flush(_ number: UInt32) {
    guard var channel = channels[number] else { return }
    if case .broken = channel.write {
    } else if !channel.pending.write(to: channel.fd) {
      channel.broke()
    }
    if case .broken = channel.write { channel.pending = ByteQueue() }
    let waiting = channel.pending.count
    if waiting > Self.dropBytes {
      channels[number] = channel
      close(number, saying: "more than \(Self.dropBytes) bytes sent past a pause")
      return
    }
    if let kind = channel.flow(waiting: waiting) { send(MuxFrame(channel: number, kind: kind)) }
    if channel.shutsWriting(waiting: waiting) { shutdown(channel.fd, Int32(SHUT_WR)) }
    channels[number] = channel
    if channel.isFinished(waiting: waiting) { finish(number) }
  }

  /// Ends a channel both of whose ways are done; the other end, still sending to a descriptor
  /// that took no more, is told to stop.
  private func finish(_ number: UInt32) {
    guard let channel = channels.removeValue(forKey: number) else { return }
    Glibc.close(channel.fd)
    if channel.tellsPeerToStop { send(MuxFrame(channel: number, kind: .close)) }
  }

  private func readChannel(_ number: UInt32) {
    guard let channel = channels[number], !channel.readEnded else { return }
    let count = chunk.withUnsafeMutableBytes { Glibc.recv(channel.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
    if count < 0, errno == EAGAIN || errno == EINTR { return }
    if count > 0 {
      chunk.withUnsafeBytes { trunk.appendFrame(channel: number, kind: .data, payload: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      return
    }
    if count < 0 {
      close(number, saying: "")
      return
    }
    channels[number]!.read = .ended
    send(MuxFrame(channel: number, kind: .end))
    if channel.doneWriting, channel.pending.isEmpty { finish(number) }
  }
}
