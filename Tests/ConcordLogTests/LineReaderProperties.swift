import Foundation
import PropertyRandom
import Testing

@testable import ConcordLog

/// The export verifier reads a file through ``LineReader``, which takes it in 64 KiB chunks.
/// Whatever the file holds — lines that span many chunks, a newline on a chunk's edge, NUL,
/// `\r`, bytes that are not UTF-8, no newline at the end — the lines must be the file's bytes cut
/// at each `\n`, as the model (a plain split of the whole file) cuts them.
@Suite struct LineReaderProperties {
  /// The model: every `\n` ends a line; what follows the last one is a line when it is not empty.
  static func modelLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  static func randomFile(_ random: inout PropertyRandom) -> [UInt8] {
    let chunk = 1 << 16
    var bytes: [UInt8] = []
    for _ in 0..<random.int(0...6) {
      // Around the chunk size, and several chunks long, as well as short.
      let length = random.pick([0, 1, random.int(0...200), chunk - 1, chunk, chunk + 1, random.int(0...(3 * chunk))])
      bytes += (0..<length).map { _ in random.pick([UInt8(ascii: "a"), 0, 0x0D, 0xFF, 0xC3, 0xA9, UInt8(ascii: "{")]) }
      if random.chance(85) { bytes.append(UInt8(ascii: "\n")) }
    }
    return bytes
  }

  @Test func linesAreTheFileCutAtEachNewline() throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "concord-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for seed in PropertyRandom.seeds(from: 0x11E5, count: 60) {
      var random = PropertyRandom(seed: seed)
      let bytes = Self.randomFile(&random)
      let file = directory.appending(path: "\(seed).jsonl")
      try Data(bytes).write(to: file)
      let handle = try FileHandle(forReadingFrom: file)
      defer { try? handle.close() }
      let read = Array(LineReader(handle: handle))
      let model = Self.modelLines(bytes)
      let same = read == model  // not the lines themselves in a failure: they run to megabytes
      #expect(same, "seed \(seed): \(read.map(\.count)) lines' lengths, the model's \(model.map(\.count))")
    }
  }

  /// With a limit, a line longer than it comes as its first `limit + 1` bytes and the rest of it
  /// is skipped: the model cuts each of its lines so.
  @Test func aLineOverTheLimitComesCutJustPastIt() throws {
    let directory = FileManager.default.temporaryDirectory.appending(path: "concord-lines-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for seed in PropertyRandom.seeds(from: 0x11E6, count: 60) {
      var random = PropertyRandom(seed: seed)
      let bytes = Self.randomFile(&random)
      let limit = random.pick([0, 1, 100, (1 << 16) - 1, 1 << 16, 100_000])
      let file = directory.appending(path: "\(seed).jsonl")
      try Data(bytes).write(to: file)
      let handle = try FileHandle(forReadingFrom: file)
      defer { try? handle.close() }
      let read = Array(LineReader(handle: handle, maximumLineBytes: limit))
      let model = Self.modelLines(bytes).map { $0.count > limit ? Array($0.prefix(limit + 1)) : $0 }
      let same = read == model
      #expect(same, "seed \(seed), limit \(limit): \(read.map(\.count)) lines' lengths, the model's \(model.map(\.count))")
    }
  }
}
