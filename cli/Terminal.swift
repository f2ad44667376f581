import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The terminal a full-screen window runs in: raw keys, the alternate screen, and its size —
/// and always put back as it was, however the window ends (return, Ctrl-C, SIGTERM, a crash
/// of the daemon).
enum Terminal {
  nonisolated(unsafe) private static var saved = termios()
  nonisolated(unsafe) private static var active = false

  static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

  /// Columns and rows.
  static var size: (columns: Int, rows: Int) {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, 24) }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  static func enterFullScreen() {
    tcgetattr(STDIN_FILENO, &saved)
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    active = true
    write("\u{1B}[?1049h\u{1B}[?25l")
    atexit { Terminal.restore() }
    for signal in [SIGTERM, SIGHUP, SIGQUIT] {
      Glibc.signal(signal) { number in
        Terminal.restore()
        Glibc.signal(number, SIG_DFL)
        raise(number)
      }
    }
  }

  static func restore() {
    guard active else { return }
    active = false
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
    write("\u{1B}[?25h\u{1B}[?1049l")
  }

  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeMutableBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return }
      offset += written
    }
  }

  /// Bytes typed so far (none when nothing waits).
  /// The keys typed since the last read; nil when the terminal is gone (its window closed,
  /// its tmux server killed), so the window ends instead of spinning on a dead descriptor.
  static func readKeys() -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: 256)
    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
    if count > 0 { return Array(buffer[..<count]) }
    if count < 0, errno == EINTR || errno == EAGAIN { return [] }
    return nil
  }
}

/// Waits until the socket or standard input has something, or `milliseconds` pass.
/// Returns (socket readable, stdin readable). Once input has ended, pass `watchingInput: false`:
/// a closed input is always "ready", and polling it would spin.
func waitForInput(socket: Int32?, milliseconds: Int32, watchingInput: Bool = true) -> (socket: Bool, stdin: Bool) {
  // A negative descriptor is one poll(2) leaves out.
  var pollers = [pollfd(fd: watchingInput ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0)]
  if let socket { pollers.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
  guard poll(&pollers, nfds_t(pollers.count), milliseconds) > 0 else { return (false, false) }
  let stdinReady = pollers[0].revents != 0
  let socketReady = pollers.count > 1 && pollers[1].revents != 0
  return (socketReady, stdinReady)
}
