import Foundation
import Testing

@testable import ConcordLog

/// `schema/audit-export.schema.json` is what an auditor reads: the members it lists are the
/// ones the verifier accepts, and its examples verify in the verifier and in the independent
/// model written from it.
@Suite struct AuditSchemaTests {
  static let schemaURL = URL(filePath: #filePath).deletingLastPathComponent()
    .appending(path: "../../schema/audit-export.schema.json").standardized

  @Test func theSchemaListsExactlyTheMembersTheVerifierAcceptsAndItsExamplesVerify() throws {
    let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL)) as? [String: Any])
    let defs = try #require(schema["$defs"] as? [String: Any])
    let shapes: [String: [String: AuditRecordShape.Kind]] = [
      // Every member a header may have: a scoped one's scope, a selection's selection.
      "header": AuditRecordShape.scopedHeader.merging(AuditRecordShape.selectionHeader) { $1 }, "entry": AuditRecordShape.entry,
      "stub": AuditRecordShape.stub, "footer": AuditRecordShape.footer,
    ]
    for (type, shape) in shapes {
      let record = try #require(defs[type] as? [String: Any], "the schema has no \(type) record")
      let properties = try #require(record["properties"] as? [String: Any])
      #expect(Set(properties.keys) == Set(shape.keys), "\(type)")
      // Every member is required but a header's scope and selection, which only a scoped or a
      // selection export has.
      let required = Set(try #require(record["required"] as? [String]))
      #expect(required == Set(shape.keys).subtracting(type == "header" ? ["scope", "selection"] : []), "\(type)")
      #expect(record["additionalProperties"] as? Bool == false, "\(type)")
    }

    // The examples, one line each, as the schema's test vector.
    let examples = try #require(schema["examples"] as? [[String: Any]])
    let lines = try examples.map {
      String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }
    let key = try #require([UInt8](hex: "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8"))
    #expect(AuditExport.verify(lines: lines, publicKey: key).failure == nil)
    let file = FileManager.default.temporaryDirectory.appending(path: "schema-examples-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
    let model = try AuditModelAgreementTests.runModel(file: file, key: key, csv: false)
    #expect(model.output == "ok 3 0", "\(model)")
  }
}
