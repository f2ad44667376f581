import Foundation

/// The lines of a file, read in chunks, as bytes: the export verifier decides what is valid
/// UTF-8, not a decoder that would replace what is not.
///
/// A line longer than `maximumLineBytes` is given as its first `maximumLineBytes + 1` bytes, and
/// the rest of it is skipped unread into memory: the caller sees it is too long, and a file with
/// a line of gigabytes costs no more than one of the limit.
struct LineReader: Sequence, IteratorProtocol {
  let handle: FileHandle
  let maximumLineBytes: Int
  var buffer: [UInt8] = []
  /// Where the next line starts: lines are taken by moving it, and the buffer is compacted once
  /// per chunk, not once per line.
  var start = 0
  /// Where the search for the next newline goes on: a line that spans many chunks is scanned
  /// once, not again from its start after every chunk.
  var searched = 0
  var atEnd = false

  init(handle: FileHandle, maximumLineBytes: Int = .max) {
    self.handle = handle
    self.maximumLineBytes = maximumLineBytes
  }

  mutating func next() -> [UInt8]? {
    while true {
      if let newline = buffer[Swift.max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[start..<Swift.min(newline, cut)])
        start = newline + 1
        return line
      }
      if atEnd {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return Array(buffer[start..<Swift.min(buffer.count, cut)])
      }
      if buffer.count - start > maximumLineBytes {
        let line = Array(buffer[start...(start + maximumLineBytes)])
        skipRestOfLine()
        return line
      }
      buffer.removeSubrange(..<start)
      start = 0
      searched = buffer.count
      readChunk()
    }
  }

  /// Where a line starting at `start` is cut: just past the limit.
  private var cut: Int { maximumLineBytes == .max ? .max : start + maximumLineBytes + 1 }

  /// Drops the line under way up to its newline, reading on as far as it goes.
  private mutating func skipRestOfLine() {
    while true {
      // The bytes before `searched` were looked at already: none is a newline.
      if let newline = buffer[Swift.max(start, searched)...].firstIndex(of: UInt8(ascii: "\n")) {
        start = newline + 1
        searched = start
        return
      }
      buffer.removeAll(keepingCapacity: true)
      start = 0
      searched = 0
      readChunk()
      if atEnd { return }
    }
  }

  private mutating func readChunk() {
    let chunk = (try? handle.read(upToCount: 1 << 16)) ?? nil
    if let chunk, !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEnd = true }
  }
}
