/// A table of figures printed at the end of a suite, columns padded to their widest cell.
///
/// ```swift
/// var table = SummaryTable(["check", "result"])
/// table.add(["actions lost", "0"])
/// table.print()
/// ```
struct SummaryTable {
  var header: [String]
  var rows: [[String]] = []

  init(_ header: [String]) { self.header = header }

  mutating func add(_ row: [String]) { rows.append(row) }

  func print() {
    let widths = header.indices.map { column in
      ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, cell in
        cell + String(repeating: " ", count: max(0, widths[column] - cell.count))
      }.joined(separator: " | ")
    }
    Swift.print("")
    Swift.print(line(header))
    Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"))
    rows.forEach { Swift.print(line($0)) }
  }
}

/// Bytes in MiB with one decimal.
func mebibytes(_ bytes: Int?) -> String {
  bytes.map { String(format: "%.1f MiB", Double($0) / 1_048_576) } ?? "–"
}
